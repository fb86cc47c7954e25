package io.dispatchpolicy.faults.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** A storm of submissions of one storm job, submitted through the fault WAR: the ids it got back. */
public record Storm(int tenants, String sleepMs, List<Long> submissionIds) {

    /** {@code fault-job}, storm indexes from 0. */
    public static Storm submit(URI faultWar, int count, int tenants, String sleepMs) {
        return submit(faultWar, "fault-job", count, tenants, sleepMs, 0);
    }

    /**
     * {@code POST /fault/submit?count=..&tenants=..&sleepMs=..&first=..&job=..}; all or nothing per chunk
     * of 500. Job {@code i} (from {@code first}) goes to tenant {@code i % tenants}.
     */
    public static Storm submit(URI faultWar, String job, int count, int tenants, String sleepMs, int first) {
        URI uri = faultWar.resolve("submit?count=" + count + "&tenants=" + tenants + "&sleepMs=" + sleepMs
                + "&first=" + first + "&job=" + job);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("Storm submission answered " + response.statusCode() + ": " + response.body());
            }
            List<Long> ids = Arrays.stream(response.body().split("\n")).filter(s -> !s.isBlank()).map(Long::valueOf).toList();
            if (ids.size() != count) {
                throw new IllegalStateException("Submitted " + count + " jobs but got " + ids.size() + " submission ids");
            }
            return new Storm(tenants, sleepMs, ids);
        } catch (IOException e) {
            throw new IllegalStateException("Storm submission to " + uri + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Both storms' ids, this one's first. */
    public Storm and(Storm other) {
        List<Long> all = new java.util.ArrayList<>(submissionIds);
        all.addAll(other.submissionIds);
        return new Storm(tenants, sleepMs, List.copyOf(all));
    }

    public int size() {
        return submissionIds.size();
    }
}
