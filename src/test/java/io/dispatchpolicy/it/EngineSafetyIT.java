package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.application.PolicyControl;
import io.dispatchpolicy.application.RecoveryService;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Poison jobs, pause, crashed nodes and restarts: nothing blocks, nothing is lost, nothing runs twice. */
class EngineSafetyIT extends EngineTest {

    @Inject
    PolicyControl control;

    @Inject
    RecoveryService recovery;

    @Inject
    @Governed
    JobOperator governed;

    @Test
    void aJobThatKeepsFailingToAdmitIsParkedAndTheRestOfItsPartitionFlows() {
        stage("it-poison", "p1", 3);
        long partition = partitionId("it-poison", "p1");
        // its job XML vanished after it was staged
        long poison = db.count("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters) "
                + "VALUES (?, 'it-vanished', '{}') RETURNING id", partition);
        db.update("UPDATE dispatch.partitions SET pending_count = pending_count + 1 WHERE id = ?", partition);

        for (int i = 0; i < 10 && admitted("it-poison", "p1") < 3; i++) {
            ticks.iterate();
        }
        assertThat(admitted("it-poison", "p1")).isEqualTo(3);
        assertThat(db.count("SELECT admit_attempts FROM dispatch.staged_jobs WHERE id = ?", poison)).isEqualTo(5);
        assertThat(db.strings("SELECT last_error FROM dispatch.staged_jobs WHERE id = ? AND parked_at IS NOT NULL", poison))
                .singleElement().asString().contains("it-vanished");
        assertThat(column("pending_count", "it-poison", "p1")).isEqualTo("0");
        assertThat(column("parked_count", "it-poison", "p1")).isEqualTo("1");
    }

    @Test
    void pausingAPolicyAlsoHoldsPartitionsCreatedAfterThePause() {
        stage("it-pause", "before", 2);
        control.pause("it-pause");
        stage("it-pause", "after", 2);
        assertThat(column("paused", "it-pause", "after")).isEqualTo("true");

        ticks.iterate();
        ticks.iterate();
        assertThat(admitted("it-pause", "before")).isZero();
        assertThat(admitted("it-pause", "after")).isZero();

        control.resume("it-pause");
        ticks.iterate();
        assertThat(admitted("it-pause", "before")).isEqualTo(2);
        assertThat(admitted("it-pause", "after")).isEqualTo(2);
    }

    @Test
    void jobsRunningOnADeadNodeAreFailedAndRestagedAsRestarts() {
        UUID dead = db.deadNode("crashed-node");
        TestSupport.Running lost = db.startedOn(dead, "it-crash", "k1");

        assertThat(recovery.releaseDeadNodesJobs()).isGreaterThanOrEqualTo(1);
        assertThat(db.batchStatus(lost.executionId())).isEqualTo("FAILED");
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", lost.executionId())).isZero();
        assertThat(db.count("SELECT restart_of FROM dispatch.staged_jobs WHERE id = ?", lost.submissionId()))
                .isEqualTo(lost.executionId());

        ticks.iterate();
        long restart = dispatch.status(lost.submissionId()).executionId().orElseThrow();
        assertThat(restart).isNotEqualTo(lost.executionId());
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(db.batchStatus(restart)));
        assertThat(BatchRuntime.getJobOperator().getJobInstance(restart).getInstanceId()).isEqualTo(lost.instanceId());
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = ?", lost.instanceId())).isEqualTo(2);
        assertThat(Runs.of(restart)).isEqualTo(1);
        assertThat(recovery.releaseDeadNodesJobs()).isZero();
    }

    @Test
    void withBypassTheRestartStartsAtOnce() {
        UUID dead = db.deadNode("crashed-node-2");
        TestSupport.Running lost = db.startedOn(dead, "it-crash-bypass", "k2");

        assertThat(recovery.releaseDeadNodesJobs()).isGreaterThanOrEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", lost.submissionId())).isZero();
        long restart = dispatch.status(lost.submissionId()).executionId().orElseThrow();
        assertThat(restart).isNotEqualTo(lost.executionId());
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(db.batchStatus(restart)));
        assertThat(Runs.of(restart)).isEqualTo(1);
    }

    @Test
    void runningJobsOfALiveNodeKeepTheirSlots() {
        UUID alive = UUID.randomUUID();
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at) VALUES (?, 'busy-node', now(), now())",
                alive);
        TestSupport.Running busy = db.startedOn(alive, "it-crash", "k3");
        recovery.releaseDeadNodesJobs();
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", busy.executionId()))
                .isEqualTo(1);
        assertThat(db.batchStatus(busy.executionId())).isEqualTo("STARTED");
        db.update("DELETE FROM dispatch.inflight_jobs WHERE execution_id = ?", busy.executionId());
    }

    @Test
    void restartingAFailedGovernedJobGoesThroughThePolicy() {
        long first = governed.start("it-retry", Params.of("tenant", "r1", "fail", "true"));
        ticks.iterate();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(first).getBatchStatus() == BatchStatus.FAILED);
        long failedExecution = dispatch.status(first).executionId().orElseThrow();

        long again = governed.restart(first, Params.of("fail", "false"));
        assertThat(DispatchOperator.isSubmissionId(again)).isTrue();
        assertThat(db.count("SELECT restart_of FROM dispatch.staged_jobs WHERE id = ?", again)).isEqualTo(failedExecution);

        ticks.iterate();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(again).getBatchStatus() == BatchStatus.COMPLETED);
        long restarted = dispatch.status(again).executionId().orElseThrow();
        assertThat(governed.getJobInstance(restarted).getInstanceId())
                .isEqualTo(governed.getJobInstance(failedExecution).getInstanceId());
        assertThat(governed.getParameters(restarted).getProperty("tenant")).isEqualTo("r1");
    }

    @Test
    void withBypassARestartStartsAtOnce() {
        long first = governed.start("it-retry-bypass", Params.of("tenant", "r2", "fail", "true"));
        ticks.iterate();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(first).getBatchStatus() == BatchStatus.FAILED);

        long restarted = governed.restart(first, Params.of("fail", "false"));
        assertThat(DispatchOperator.isSubmissionId(restarted)).isFalse();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(restarted).getBatchStatus() == BatchStatus.COMPLETED);
    }
}
