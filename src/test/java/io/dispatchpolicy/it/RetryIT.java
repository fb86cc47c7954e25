package io.dispatchpolicy.it;

import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.DeadJobQuery;
import io.dispatchpolicy.console.monitoring.DeadJobView;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.JobExecution;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Automatic retries: a failed governed job is restarted (same job instance) through its policy after
 * the policy's delay, then is dead, kept with its error for an operator to retry or discard.
 */
class RetryIT extends EngineTest {

    @Inject
    @Governed
    JobOperator jobs;

    @Inject
    DeadJobControl dead;

    @Test
    void aJobThatAlwaysFailsRunsThreeTimesASecondApartThenIsDeadWithItsError() {
        long id = stage("it-autoretry", "a", 1, "fail", "true")[0];

        SubmissionStatus status = iterateUntilDead(id);
        assertThat(status.attempt()).isEqualTo(3);
        List<JobExecution> runs = executionsOf(status.executionId().getAsLong());
        assertThat(runs).hasSize(3).allSatisfy(e -> assertThat(e.getBatchStatus().name()).isEqualTo("FAILED"));
        for (int i = 1; i < runs.size(); i++) {
            long gap = runs.get(i).getStartTime().getTime() - runs.get(i - 1).getEndTime().getTime();
            assertThat(gap).as("gap before retry %d", i).isGreaterThanOrEqualTo(1_000);
        }
        runs.forEach(e -> assertThat(Runs.of(e.getExecutionId())).isEqualTo(1));
        DeadJobView row = deadRow(id);
        assertThat(row.attempts()).isEqualTo(3);
        assertThat(row.executionId()).isEqualTo(runs.get(2).getExecutionId());
        assertThat(row.error()).contains("IllegalStateException: failing as asked");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", id)).isZero();
    }

    @Test
    void aCustomRuleStopsAtOnceOnItsExitStatusAndRetriesOthers() {
        long fatal = stage("it-stopretry", "s", 1, "fail", "true", "exitStatus", "FATAL")[0];
        long transientFailure = stage("it-stopretry", "t", 1, "fail", "true", "exitStatus", "BUSY")[0];

        SubmissionStatus dead = iterateUntilDead(fatal);
        assertThat(dead.attempt()).isEqualTo(1);
        assertThat(executionsOf(dead.executionId().getAsLong())).hasSize(1);
        assertThat(deadRow(fatal).exitStatus()).isEqualTo("FATAL");

        await().atMost(Duration.ofSeconds(30)).until(() -> dispatch.status(transientFailure).state() == SubmissionStatus.State.STAGED);
        SubmissionStatus retry = dispatch.status(transientFailure);
        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(retry.dueAt()).as("due a second after the failure").isNotNull();
    }

    @Test
    void aChunkJobResumesFromItsLastCheckpointOnRetry() {
        long id = stage("it-chunk-retry", "c", 1)[0];

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            SubmissionStatus s = dispatch.status(id);
            return s.attempt() == 2 && s.executionId().isPresent()
                    && "COMPLETED".equals(db.batchStatus(s.executionId().getAsLong()));
        });
        List<JobExecution> runs = executionsOf(dispatch.status(id).executionId().getAsLong());
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).getBatchStatus().name()).isEqualTo("FAILED");
        assertThat(ChunkItems.writtenBy(runs.get(0).getExecutionId())).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(ChunkItems.writtenBy(runs.get(1).getExecutionId())).as("resumed after the checkpoint at 6")
                .containsExactly(7, 8, 9, 10);
    }

    @Test
    void retryNowAdmitsADeadJobOnceAndDiscardRemovesOne() {
        long[] ids = stage("it-deadnow", "d", 2, "fail", "true");
        iterateUntilDead(ids[0]);
        iterateUntilDead(ids[1]);
        assertThat(dead.count(new DeadJobQuery("it-deadnow", null, null, null, 0, 10))).isEqualTo(2);
        assertThat(dead.count(new DeadJobQuery("it-deadnow", "d", "it-deadnow", "failing as", 0, 10))).isEqualTo(2);
        assertThat(dead.count(new DeadJobQuery("it-deadnow", "zzz", null, null, 0, 10))).isZero();

        assertThat(dead.retryNow(List.of(ids[0]), Operators.ADMIN)).isEqualTo(1);
        SubmissionStatus staged = dispatch.status(ids[0]);
        assertThat(staged.state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(staged.attempt()).isEqualTo(2);
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        SubmissionStatus again = iterateUntilDead(ids[0]);
        assertThat(again.attempt()).as("its retries stay spent: dead again after the one attempt").isEqualTo(2);
        assertThat(executionsOf(again.executionId().getAsLong())).hasSize(2);

        assertThat(dead.discard(List.of(ids[1]), Operators.ADMIN)).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", ids[1])).isZero();
        assertThat(dispatch.status(ids[1]).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(dead.retryNow(List.of(ids[1]), Operators.ADMIN)).as("nothing left to retry").isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", ids[1])).isZero();
    }

    @Test
    void withBypassARetryStartsPastAFullConcurrencyGate() {
        long failing = stage("it-bypass-retry", "b", 1, "fail", "true")[0];
        // counted on this policy's partition: an iteration also admits whatever else is due in the shared database
        ticks.iterate();
        assertThat(admitted("it-bypass-retry", "b")).as("recent admissions: %s", recentAdmissions()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND bypass", failing) == 1);
        // the retry is due 5 s after the failure: time enough for the sleeper to take the slot first, even on
        // a loaded machine (2 s was not), and the sleeper outlasts the retry's admission
        long sleeper = stage("it-bypass-retry", "b", 1, "sleepMs", "15000")[0];
        ticks.iterate();
        assertThat(admitted("it-bypass-retry", "b")).as("the sleeper takes the only slot; the retry is not due yet (%s)",
                recentAdmissions()).isEqualTo(2);
        assertThat(dispatch.status(failing).state()).isEqualTo(SubmissionStatus.State.STAGED);
        long sleeperExecution = dispatch.status(sleeper).executionId().getAsLong();

        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND due_at <= now()", failing) == 1);
        ticks.iterate();
        // (the retry fails again at once, as it was asked to: then it is dead, its retries spent)
        assertThat(admitted("it-bypass-retry", "b")).as("the due retry bypasses the full gate (%s)", recentAdmissions()).isEqualTo(3);
        assertThat(dispatch.status(failing).attempt()).isEqualTo(2);
        assertThat(db.batchStatus(sleeperExecution)).as("the slot's holder still runs").isEqualTo("STARTED");
    }

    /** What the last seconds admitted, for a failure's message. */
    private List<String> recentAdmissions() {
        return db.strings("SELECT p.policy_name || '/' || p.partition_key || ' #' || a.submission_id FROM dispatch.admissions a "
                + "JOIN dispatch.partitions p ON p.id = a.partition_id WHERE a.admitted_at > now() - interval '10 seconds'");
    }

    private SubmissionStatus iterateUntilDead(long id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return dispatch.status(id).state() == SubmissionStatus.State.DEAD;
        });
        return dispatch.status(id);
    }

    private DeadJobView deadRow(long id) {
        return dead.page(DeadJobQuery.all(1000)).stream().filter(d -> d.submissionId() == id).findFirst().orElseThrow();
    }

    private List<JobExecution> executionsOf(long executionId) {
        return jobs.getJobExecutions(jobs.getJobInstance(executionId)).stream()
                .sorted(Comparator.comparingLong(JobExecution::getExecutionId)).toList();
    }
}
