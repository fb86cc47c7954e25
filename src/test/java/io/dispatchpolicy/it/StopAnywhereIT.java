package io.dispatchpolicy.it;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobLife;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stop from any node (issue 35, deliverable 6; ADR 0031): an operator's stop is recorded on the execution's
 * in-flight row, and the node that runs the execution hands it to its own JBeret within a second — a stop
 * asked on another node (written on the row, as that node's console does) reaches the job; a stop asked
 * here is delivered at once; the console and the API say where it stands.
 */
class StopAnywhereIT extends EngineTest {

    @Inject
    JobControl jobs;

    @Test
    void aStopAskedOnAnotherNodeIsDeliveredByTheNodeThatRunsTheJobWithinASecond() {
        long id = stage("it-stop", "a", 1, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long execution = dispatch.status(id).executionId().getAsLong();
        await().atMost(Duration.ofSeconds(20)).until(() -> "STARTED".equals(db.batchStatus(execution)) && Runs.of(execution) == 1);

        // what another node's console writes: the request on the row, nothing to this node's JBeret
        db.update("UPDATE dispatch.inflight_jobs SET stop_requested_at = clock_timestamp() WHERE execution_id = ?", execution);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> "STOPPED".equals(db.batchStatus(execution)));
        double deliveredAfter = Double.parseDouble(db.strings("SELECT extract(epoch FROM stop_delivered_at - stop_requested_at)::text "
                + "FROM dispatch.inflight_jobs WHERE execution_id = ?", execution).get(0));
        assertThat(deliveredAfter).as("seconds from the request to its delivery: one watchdog pass").isLessThanOrEqualTo(1.5);
        JobLife life = jobs.life(id).orElseThrow();
        assertThat(life.stopRequest()).startsWith("asked at ").contains(", delivered by node ");
        assertThat(life.runsOn()).isNotNull();
        // an operator's stop stands: nothing is staged to run it again
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? OR restart_of = ?", id, execution)).isZero();
        assertThat(Runs.of(execution)).isEqualTo(1);
    }

    @Test
    void theConsoleAndTheApiStopAJobOfThisNodeAtOnceAndAViewerIsRefused() {
        long[] ids = stage("it-stop", "b", 2, "sleepMs", "60000");
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        long first = dispatch.status(ids[0]).executionId().getAsLong();
        long second = dispatch.status(ids[1]).executionId().getAsLong();
        await().atMost(Duration.ofSeconds(20)).until(() -> "STARTED".equals(db.batchStatus(first)) && "STARTED".equals(db.batchStatus(second)));

        assertThat(jobs.stop(ids[0], Operators.OPERATOR)).isEqualTo("Asked execution " + first + " of job " + ids[0] + " to stop.");
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ? AND stop_delivered_at IS NOT NULL",
                first)).as("asked here: delivered at once").isEqualTo(1);

        HttpResponse<String> refused = post("api/jobs/" + ids[1] + "/stop", "viewer:viewer-secret");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(db.batchStatus(second)).isEqualTo("STARTED");
        HttpResponse<String> stopped = post("api/jobs/" + ids[1] + "/stop", "operator:operator-secret");
        assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
        assertThat(stopped.body()).contains("Asked execution " + second + " of job " + ids[1] + " to stop.");

        await().atMost(Duration.ofSeconds(10)).until(() -> "STOPPED".equals(db.batchStatus(first)) && "STOPPED".equals(db.batchStatus(second)));
        assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE action = 'JOB_STOP' AND target = ? AND outcome = 'refused'",
                String.valueOf(ids[1]))).isEqualTo(1);
    }

    private static HttpResponse<String> post(String path, String credentials) {
        return ConsoleHttp.send(HttpRequest.newBuilder(URI.create(ConsoleHttp.CONSOLE + path))
                .header("Authorization", ConsoleHttp.basic(credentials)).POST(HttpRequest.BodyPublishers.noBody()));
    }
}
