package io.dispatchpolicy.faults.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** A storm of {@code fault-job} submissions, submitted through the fault WAR: the ids it got back. */
public record Storm(int tenants, String sleepMs, List<Long> submissionIds) {

    /** {@code POST /fault/submit?count=..&tenants=..&sleepMs=..}; all or nothing per chunk of 500. */
    public static Storm submit(URI faultWar, int count, int tenants, String sleepMs) {
        URI uri = faultWar.resolve("submit?count=" + count + "&tenants=" + tenants + "&sleepMs=" + sleepMs);
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

    public int size() {
        return submissionIds.size();
    }
}
