package io.dispatchpolicy.it;

import io.dispatchpolicy.upkeep.RecoveryService;
import jakarta.annotation.Resource;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An admission committed whose runner never reached JBeret is started exactly once. */
class RecoveryIT extends SystemTest {

    @Inject
    RecoveryService recovery;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void committedButNeverSubmittedIsStartedExactlyOnce() throws Exception {
        UUID ghost = db.deadNode("ghost-node");
        long execution = db.admittedButNeverSubmitted("it-recovery", ghost);
        assertThat(BatchRuntime.getJobOperator().getJobExecution(execution).getBatchStatus()).isEqualTo(BatchStatus.STARTING);
        assertThat(Runs.of(execution)).isZero();

        // Two recoverers at once, besides the node's own recovery timer.
        Callable<Integer> recover = recovery::recoverUnstarted;
        List<Future<Integer>> both = executor.invokeAll(List.of(recover, recover));
        int adoptedHere = both.get(0).get() + both.get(1).get();
        assertThat(adoptedHere).isLessThanOrEqualTo(1);

        await().atMost(Duration.ofSeconds(60)).until(() ->
                BatchRuntime.getJobOperator().getJobExecution(execution).getBatchStatus() == BatchStatus.COMPLETED);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", execution) == 0);
        assertThat(recovery.recoverUnstarted()).isZero();
        assertThat(Runs.of(execution)).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobexecutionid = ?", execution)).isEqualTo(1);
    }

    @Test
    void unstartedJobsOfALiveNodeKeepTheirRows() {
        UUID alive = UUID.randomUUID();
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at) VALUES (?, 'alive-node', now(), now())",
                alive);
        long execution = db.admittedButNeverSubmitted("it-recovery", alive);

        recovery.recoverUnstarted();
        assertThat(db.strings("SELECT node_id::text FROM dispatch.inflight_jobs WHERE execution_id = ?", execution))
                .containsExactly(alive.toString());
        assertThat(Runs.of(execution)).isZero();

        // Once that node is gone, its queued job is recovered.
        db.update("UPDATE dispatch.nodes SET stopped_at = now() WHERE id = ?", alive);
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            recovery.recoverUnstarted();
            return BatchRuntime.getJobOperator().getJobExecution(execution).getBatchStatus() == BatchStatus.COMPLETED;
        });
        assertThat(Runs.of(execution)).isEqualTo(1);
    }
}
