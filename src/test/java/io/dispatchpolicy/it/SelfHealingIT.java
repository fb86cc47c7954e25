package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.completion.JobStops;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.RunnerLifecycle;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.upkeep.RecoveryService;
import jakarta.annotation.Resource;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.jberet.runtime.JobExecutionImpl;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node reconciles its own in-flight rows with the runners its JVM holds: a row whose runner is
 * gone (as a database outage leaves it) is repaired exactly once, and a row whose runner is queued or
 * running is never touched, however often reconcile races it.
 */
class SelfHealingIT extends SystemTest {

    private static final String JOB = "it-heal";

    @Inject
    RecoveryService recovery;

    @Inject
    ThisNode node;

    @Inject
    DispatchOperator dispatch;

    @Inject
    JobRuntime jobs;

    @Inject
    JobStops stops;

    @Inject
    RunnerLifecycle lifecycle;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void anOwnRowWhoseRunnerNeverStartedIsStartedExactlyOnce() {
        // What a runner leaves when the database is down as it tries to mark its start.
        long execution = db.admittedButNeverSubmitted(JOB, node.id());

        // the node's own recovery pass may get there first: either way it starts once (the count returned
        // may include rows other classes left to this node's reconcile, so the runs are what is asserted)
        recovery.reconcile();
        await().atMost(Duration.ofSeconds(60)).until(() -> "COMPLETED".equals(db.batchStatus(execution)));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", execution) == 0);
        assertThat(recovery.reconcile()).isZero();
        assertThat(Runs.of(execution)).isEqualTo(1);
    }

    @Test
    void anOwnRowWhoseRunnerEndedUnrecordedIsFailedAndRestartedThroughItsPolicy() {
        // JBeret says STARTED, the row says started, and no runner of it lives here: its thread died
        // when the database went away.
        TestSupport.Running lost = db.startedOn(node.id(), JOB, "lost-runner");

        assertThat(recovery.reconcile()).isLessThanOrEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> "FAILED".equals(db.batchStatus(lost.executionId())));
        // restaged under the same submission id, admitted by the node's tick, restarted on the same instance
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM job_execution "
                + "WHERE jobinstanceid = ? AND batchstatus = 'COMPLETED'", lost.instanceId()) == 1);
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = ?", lost.instanceId())).isEqualTo(2);
        assertThat(dispatch.status(lost.submissionId()).executionId().getAsLong()).isNotEqualTo(lost.executionId());
        await().atMost(Duration.ofSeconds(10)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs i "
                + "JOIN dispatch.partitions p ON p.id = i.partition_id WHERE p.partition_key = 'lost-runner'") == 0);
    }

    @Test
    void aRunnerWhoseEndJBeretCouldNotRecordKeepsItsSlotUntilReconcileSettlesIt() {
        // The runner ended FAILED in memory, but its last write to JBeret's table was lost (a pooled
        // connection the database's restart had broken), so the record still says STARTED.
        TestSupport.Running ran = db.startedOn(node.id(), JOB, "unrecorded-end");
        JobExecutionImpl inMemory = (JobExecutionImpl) jobs.environment().getJobRepository().getJobExecution(ran.executionId());
        inMemory.setBatchStatus(BatchStatus.FAILED);

        lifecycle.finished(inMemory);

        // the slot is not freed on the runner's word while the record disagrees...
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", ran.executionId())).isEqualTo(1);
        assertThat(db.batchStatus(ran.executionId())).isEqualTo("STARTED");
        // ...reconcile writes the end back and restarts it, once
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            recovery.reconcile();
            return "FAILED".equals(db.batchStatus(ran.executionId()));
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM job_execution "
                + "WHERE jobinstanceid = ? AND batchstatus = 'COMPLETED'", ran.instanceId()) == 1);
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = ?", ran.instanceId())).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs i "
                + "JOIN dispatch.partitions p ON p.id = i.partition_id WHERE p.partition_key = 'unrecorded-end'") == 0);
    }

    @Test
    void reconcileRacingQueuedAndRunningRunnersNeverTouchesThem() throws Exception {
        // 40 slow jobs and 10 batch threads: most runners wait in JBeret's queue while reconcile runs.
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            jobs.add(Params.of("tenant", "race-" + (i % 4), "sleepMs", "700"));
        }
        long[] submissions = dispatch.submitAll(JOB, jobs);
        AtomicBoolean done = new AtomicBoolean();
        List<Future<Integer>> racers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            racers.add(executor.submit(() -> {
                int repaired = 0;
                while (!done.get()) {
                    repaired += recovery.reconcile();
                }
                return repaired;
            }));
        }
        try {
            await().atMost(Duration.ofSeconds(120)).until(() -> allCompleted(submissions)
                    && db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id = ANY(?)",
                    (Object) java.util.Arrays.stream(submissions).boxed().toArray(Long[]::new)) == 0);
        } finally {
            done.set(true);
        }
        assertThat(racers.get(0).get() + racers.get(1).get()).as("rows reconcile repaired").isZero();
        Map<Long, Integer> perSubmission = db.executionsPerSubmission(JOB);
        for (long submission : submissions) {
            assertThat(perSubmission.get(submission)).as("executions of submission %s", submission).isEqualTo(1);
            long execution = dispatch.status(submission).executionId().orElseThrow();
            assertThat(db.batchStatus(execution)).isEqualTo("COMPLETED");
            assertThat(Runs.of(execution)).as("runs of execution %s", execution).isEqualTo(1);
        }
    }

    @Test
    void aSlotFreedByAnEndingJobIsRefilledWithoutWaitingOutTheFullBackoff() {
        // it-refill: one slot, a 60 s full-backoff. The second job is denied concurrency_full...
        long[] ids = dispatch.submitAll("it-refill", List.of(Params.of("tenant", "refill", "sleepMs", "2000"),
                Params.of("tenant", "refill", "sleepMs", "10")));
        await().atMost(Duration.ofSeconds(30)).until(() -> dispatch.status(ids[0]).executionId().isPresent());
        await().atMost(Duration.ofSeconds(30)).until(() -> db.strings("SELECT last_deny_reason FROM dispatch.partitions "
                + "WHERE policy_name = 'it-refill' AND partition_key = 'refill'").contains("concurrency_full"));
        // ...and admitted as soon as the first ends, not a minute later
        await().atMost(Duration.ofSeconds(15)).until(() -> dispatch.status(ids[1]).executionId().isPresent());
        await().atMost(Duration.ofSeconds(30)).until(() -> allCompleted(ids));
    }

    private boolean allCompleted(long[] submissions) {
        for (long submission : submissions) {
            var execution = dispatch.status(submission).executionId();
            if (execution.isEmpty() || !"COMPLETED".equals(db.batchStatus(execution.getAsLong()))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aJobStoppedOnALiveNodeKeepsItsSlotUntilReconciledAndIsNotRestarted() {
        long submission = dispatch.submitAll(JOB, List.of(Params.of("tenant", "stopper", "sleepMs", "60000")))[0];
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatch.status(submission).executionId().isPresent()
                && Runs.of(dispatch.status(submission).executionId().getAsLong()) == 1);
        long execution = dispatch.status(submission).executionId().getAsLong();

        stops.stop(execution);
        await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(db.batchStatus(execution)));
        // the row records the end (the node's own reconcile, every recovery interval, may free it at once after)
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            List<String> row = db.strings("SELECT ended_status FROM dispatch.inflight_jobs WHERE execution_id = ?", execution);
            return row.isEmpty() || row.contains("STOPPED");
        });

        // an operator's stop on a live node: the slot is freed by reconcile, the job stays stopped
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            recovery.reconcile();
            return db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", execution) == 0;
        });
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = "
                + "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?)", execution)).isEqualTo(1);
        assertThat(db.staged(JOB)).isZero();
    }

    /**
     * A stop nobody recorded — what WildFly's batch subsystem does to every running execution in the shared
     * repository when any node of the cluster suspends — is an interruption: the job runs again through its
     * policy, once, as a new execution of the same instance.
     */
    @Test
    void aStopNoOperatorAskedForIsAnInterruptionAndTheJobRunsAgainOnce() {
        long submission = dispatch.submitAll(JOB, List.of(Params.of("tenant", "interrupted", "sleepMs", "3000")))[0];
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatch.status(submission).executionId().isPresent()
                && Runs.of(dispatch.status(submission).executionId().getAsLong()) == 1);
        long execution = dispatch.status(submission).executionId().getAsLong();

        jobs.stop(execution); // JBeret's own stop, as another node's server suspend does it
        await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(db.batchStatus(execution)));
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            recovery.reconcile();
            var latest = dispatch.status(submission).executionId();
            return latest.isPresent() && latest.getAsLong() != execution && "COMPLETED".equals(db.batchStatus(latest.getAsLong()));
        });
        long again = dispatch.status(submission).executionId().getAsLong();
        assertThat(Runs.of(again)).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = "
                + "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?)", execution)).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", execution)).isZero();
        assertThat(db.staged(JOB)).isZero();
    }
}
