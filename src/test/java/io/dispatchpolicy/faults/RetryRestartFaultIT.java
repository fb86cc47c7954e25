package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.app.FailingBatchlet;
import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.check.Observations;
import io.dispatchpolicy.faults.harness.FaultRun;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * (e) A retry falls due while WildFly is down: a job that always fails, retried once
 * {@link FaultPolicies#RETRY_DELAY} after its failure, has its retry staged when the server is stopped
 * cleanly; the server stays down past the retry's due time and boots again. The retry runs after the
 * boot, as a restart of the same job instance, and the job is then dead with its error: nothing lost,
 * nothing run twice.
 */
class RetryRestartFaultIT {

    private static final String STAGED_RETRY = "SELECT restart_of, attempt, due_at, due_at > now() FROM dispatch.staged_jobs WHERE id = ?";
    private static final String EXECUTIONS = "SELECT e.jobexecutionid, e.batchstatus, e.createtime FROM job_execution e "
            + "WHERE e.jobinstanceid = (SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?) ORDER BY e.jobexecutionid";

    record StagedRetry(long restartOf, int attempt, Timestamp dueAt, boolean inFuture) {
    }

    record Execution(long id, String status, Timestamp created) {
    }

    @Test
    void aRetryDueWhileTheServerIsDownRunsAfterBoot() throws Exception {
        try (FaultRun run = FaultRun.start("e-retry-restart", "clean stop of WildFly while a retry is staged; boot after it is due")) {
            long id = submitFailing(run);

            StagedRetry retry = await("the failed job's retry staged").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200)).until(() -> stagedRetry(run, id), r -> r != null);
            assertThat(retry.attempt()).isEqualTo(2);
            assertThat(executions(run, retry.restartOf())).extracting(Execution::status).containsExactly("FAILED");

            run.faultStarted("SIGTERM to WildFly while the retry of submission " + id + " is staged, due at " + retry.dueAt());
            run.server().stop(Duration.ofMinutes(2));
            StagedRetry afterStop = stagedRetry(run, id);
            assertThat(afterStop).as("the retry is still staged, not yet due, once the server is down"
                    + " (a stop slower than the retry delay cannot test this)").isNotNull();
            assertThat(afterStop.inFuture()).as("retry not yet due at " + afterStop.dueAt() + " when the stop ended").isTrue();

            await("the retry's due time passing while the server is down").atMost(FaultPolicies.RETRY_DELAY.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(500)).until(() -> !stagedRetry(run, id).inFuture());
            Timestamp booting = databaseNow(run);
            run.bootServer();
            run.faultEnded();

            await("the retry run after boot, then the job dead").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> deadAttempts(run, id), attempts -> attempts != null);
            assertThat(deadAttempts(run, id)).isEqualTo(2);
            assertThat(deadError(run, id)).contains(FailingBatchlet.ERROR);
            assertThat(stagedRetry(run, id)).as("nothing left staged").isNull();

            List<Execution> executions = executions(run, retry.restartOf());
            assertThat(executions).as("the submitted execution and exactly one restart of the same job instance")
                    .extracting(Execution::status).containsExactly("FAILED", "FAILED");
            assertThat(executions.get(1).created()).as("the retry ran after the boot").isAfterOrEqualTo(booting);
        }
    }

    private static long submitFailing(FaultRun run) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(run.server().baseUri().resolve("submit-failing"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Long.parseLong(response.body().strip());
    }

    private static StagedRetry stagedRetry(FaultRun run, long id) throws SQLException {
        List<StagedRetry> rows = query(run, STAGED_RETRY, rs -> new StagedRetry(rs.getLong(1), rs.getInt(2),
                rs.getTimestamp(3), rs.getBoolean(4)), id);
        return rows.isEmpty() || rows.get(0).restartOf() == 0 ? null : rows.get(0);
    }

    private static List<Execution> executions(FaultRun run, long executionId) throws SQLException {
        return query(run, EXECUTIONS, rs -> new Execution(rs.getLong(1), rs.getString(2), rs.getTimestamp(3)), executionId);
    }

    private static Integer deadAttempts(FaultRun run, long id) throws SQLException {
        List<Integer> rows = query(run, "SELECT attempts FROM dispatch.dead_jobs WHERE submission_id = ?", rs -> rs.getInt(1), id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static String deadError(FaultRun run, long id) throws SQLException {
        return query(run, "SELECT error FROM dispatch.dead_jobs WHERE submission_id = ?", rs -> rs.getString(1), id).get(0);
    }

    private static Timestamp databaseNow(FaultRun run) throws SQLException {
        return query(run, "SELECT now()", rs -> rs.getTimestamp(1)).get(0);
    }

    private static <T> List<T> query(FaultRun run, String sql, Observations.Row<T> row, Object... args) {
        return Observations.query(run.database()::connect, sql, row, args);
    }

}
