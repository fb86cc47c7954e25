package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.harness.FaultRun;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * Scenario (l), the last part of (k)'s run on its two nodes (both started with
 * {@code dispatch.recover-ungoverned=restart}, issue 35 deliverable 5, ADR 0032): {@code kill -9} of {@code b}
 * while it and {@code a} each run 5 jobs no policy governs, started with JBeret's own operator. The survivor marks
 * b's executions FAILED within 30 s and restarts each once, and they complete; a's own, running all along, are left
 * alone and complete once.
 */
final class UngovernedKill {

    /** What both servers of the run must be started with. */
    static final String RECOVER = "-Ddispatch.recover-ungoverned=restart";
    private static final int EACH = 5;
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private UngovernedKill() {
    }

    /** Runs it; b is dead afterwards. @return what went wrong (nothing: empty) */
    static List<String> survivorRepairsTheDeadNodesExecutions(FaultRun run) {
        List<Long> onB = start(run, "b", "12000");
        List<Long> onA = start(run, "a", "12000");
        await("l: every ungoverned execution running").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> count(run, "SELECT count(*) FROM job_execution WHERE batchstatus = 'STARTED' AND jobexecutionid = ANY(?)",
                        concat(onA, onB)) == 2L * EACH);

        Instant killed = Instant.now();
        long pid = run.server("b").kill();
        Double marked = null;
        try {
            await().atMost(LIMIT.plusSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() ->
                    count(run, "SELECT count(*) FROM job_execution WHERE batchstatus = 'FAILED' AND jobexecutionid = ANY(?)", onB) == EACH);
            marked = Duration.between(killed, Instant.now()).toMillis() / 1000.0;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // reported below
        }
        List<String> problems = new ArrayList<>();
        if (marked == null || marked > LIMIT.toSeconds()) {
            problems.add("l: b's ungoverned executions were marked FAILED after " + marked + " s, limit " + LIMIT.toSeconds() + " s");
        }
        // each of b's restarted once, completed; each of a's ran once, completed
        await("l: the restarts and a's own executions completed").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> count(run, "SELECT count(*) FROM job_execution e JOIN job_execution o "
                        + "ON o.jobinstanceid = e.jobinstanceid WHERE o.jobexecutionid = ANY(?) AND e.batchstatus = 'COMPLETED'",
                        concat(onA, onB)) == 2L * EACH);
        long bRuns = count(run, "SELECT count(*) FROM job_execution e JOIN job_execution o ON o.jobinstanceid = e.jobinstanceid "
                + "WHERE o.jobexecutionid = ANY(?)", onB);
        long aRuns = count(run, "SELECT count(*) FROM job_execution e JOIN job_execution o ON o.jobinstanceid = e.jobinstanceid "
                + "WHERE o.jobexecutionid = ANY(?)", onA);
        long aCompleted = count(run, "SELECT count(*) FROM job_execution WHERE batchstatus = 'COMPLETED' AND jobexecutionid = ANY(?)", onA);
        run.note("ungovernedKill", Map.of("ungovernedOnB", onB, "ungovernedOnA", onA, "killedJvmPid", pid,
                "secondsToMarkBsExecutionsFailed", marked == null ? "never" : marked,
                "executionsOfBsInstances", bRuns, "executionsOfAsInstances", aRuns));
        if (bRuns != 2L * EACH) {
            problems.add("l: b's " + EACH + " instances have " + bRuns + " executions, not one FAILED and one restart each");
        }
        if (aRuns != EACH || aCompleted != EACH) {
            problems.add("l: a's own ungoverned executions were touched: " + aRuns + " executions, " + aCompleted + " COMPLETED of " + EACH);
        }
        return problems;
    }

    private static List<Long> start(FaultRun run, String server, String sleepMs) {
        URI uri = run.server(server).baseUri().resolve("start-ungoverned?count=" + EACH + "&sleepMs=" + sleepMs);
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
            }
            return Arrays.stream(response.body().split("\n")).filter(l -> !l.isBlank()).map(l -> Long.valueOf(l.strip())).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static long count(FaultRun run, String sql, List<Long> ids) {
        try (Connection c = run.database().connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
