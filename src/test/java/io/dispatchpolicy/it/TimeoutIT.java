package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobLife;
import io.dispatchpolicy.console.monitoring.DeadJobQuery;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.SettingNames;
import org.junit.jupiter.api.Test;

import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Execution timeouts and the progress watchdog (issue 35, ADR 0030): a job past its run timeout is stopped
 * within a watchdog pass of it, recorded FAILED with the reason, its slot free at once (even while its
 * thread still runs it), and its policy's retries apply; a chunk step that stops checkpointing is stopped
 * too, a batchlet step is not watched for checkpoints, and a job that ends in time is untouched. Times are
 * the database's.
 */
class TimeoutIT extends EngineTest {

    @Inject
    DeadJobControl dead;

    @Inject
    JobControl jobs;

    @Inject
    PolicyRegistry policies;

    @Inject
    SettingNames names;

    @Test
    void aJobPastItsTimeoutIsStoppedFailedWithTheReasonRetriedThenDead() throws Exception {
        Scrape before = Scrape.now();
        long id = stage("it-timeout", "t", 1, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long first = dispatch.status(id).executionId().getAsLong();

        // the retry (attempt 2, due at once) is admitted once the first attempt has ended; then it times out too
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200)).until(() -> {
            ticks.iterate();
            return dispatch.status(id).state() == SubmissionStatus.State.DEAD;
        });
        SubmissionStatus status = dispatch.status(id);
        assertThat(status.attempt()).isEqualTo(2);
        long second = status.executionId().getAsLong();
        assertThat(second).isNotEqualTo(first);
        for (long execution : List.of(first, second)) {
            assertThat(db.batchStatus(execution)).isEqualTo("FAILED");
            assertThat(db.strings("SELECT exitstatus FROM job_execution WHERE jobexecutionid = ?", execution))
                    .containsExactly("timed out after 3 s");
            // started to stopped: its 3 s, plus at most a watchdog pass (1 s) and this machine's noise
            double ranFor = Double.parseDouble(db.strings("SELECT extract(epoch FROM endtime - starttime)::text FROM job_execution "
                    + "WHERE jobexecutionid = ?", execution).get(0));
            assertThat(ranFor).as("seconds execution %d ran", execution).isBetween(3.0, 5.5);
            assertThat(Runs.of(execution)).isEqualTo(1);
        }
        assertThat(dead.page(DeadJobQuery.all(1000)).stream().filter(d -> d.submissionId() == id).findFirst().orElseThrow().error())
                .startsWith("timed out after 3 s");
        assertThat(Scrape.now().value("dispatch_jobs_timed_out_total", "policy", "it-timeout", "timeout", "run")
                - before.value("dispatch_jobs_timed_out_total", "policy", "it-timeout", "timeout", "run")).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id = ?", id)).isZero();
    }

    @Test
    void aHungJobsSlotIsFreeAtItsTimeoutWhileItsThreadStillRunsIt() {
        long hung = stage("it-timeout-hung", "h", 1, "runMs", "9000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long quick = stage("it-timeout-quick", "h", 1)[0];
        long execution = dispatch.status(hung).executionId().getAsLong();
        ticks.iterate();
        assertThat(dispatch.status(quick).state()).as("one slot, taken").isEqualTo(SubmissionStatus.State.STAGED);

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() ->
                db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ? AND timed_out_at IS NOT NULL "
                        + "AND cost = 0", execution) == 1);
        assertThat(ticks.iterate().admitted()).as("its slot is free at once").isEqualTo(1);
        assertThat(dispatch.status(quick).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(db.batchStatus(execution)).as("ignoring stop and interrupts, it still runs").isIn("STARTED", "STOPPING");
        JobLife life = jobs.life(hung).orElseThrow();
        assertThat(life.timeouts()).isEqualTo("run 2 s");
        assertThat(life.timedOut()).as("the job's page says why it is stopping").isEqualTo("timed out after 2 s");

        await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(db.batchStatus(execution)));
        assertThat(db.strings("SELECT exitstatus FROM job_execution WHERE jobexecutionid = ?", execution))
                .containsExactly("timed out after 2 s");
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", execution))
                .as("released when it ended").isZero();
        assertThat(jobs.life(hung).orElseThrow().timedOut()).isNull();
        assertThat(jobs.life(hung).orElseThrow().executions().get(0).exitStatus()).isEqualTo("timed out after 2 s");
    }

    @Test
    void aChunkStepThatStopsCheckpointingIsStoppedAndABatchletStepIsNotWatchedForCheckpoints() throws Exception {
        Scrape before = Scrape.now();
        // a 3 s batchlet step (longer than the 2 s progress timeout: not watched), then items checkpointed two at a
        // time until the reader hangs before item 5
        long id = stage("it-timeout-stall", "s", 1, "warmUpMs", "3000", "stallAt", "5")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long execution = dispatch.status(id).executionId().getAsLong();

        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(db.batchStatus(execution)));
        assertThat(db.strings("SELECT exitstatus FROM job_execution WHERE jobexecutionid = ?", execution))
                .containsExactly("no checkpoint for 2 s");
        assertThat(db.strings("SELECT stepname || ' ' || batchstatus FROM step_execution WHERE jobexecutionid = ? "
                + "ORDER BY stepexecutionid", execution).get(0)).isEqualTo("warm-up COMPLETED");
        assertThat(ChunkItems.writtenBy(execution)).as("written up to the last checkpoint").containsExactly(1, 2, 3, 4);
        assertThat(Scrape.now().value("dispatch_jobs_timed_out_total", "policy", "it-timeout-stall", "timeout", "progress")
                - before.value("dispatch_jobs_timed_out_total", "policy", "it-timeout-stall", "timeout", "progress")).isEqualTo(1);
    }

    @Test
    void aJobThatEndsInTimeIsUntouchedASubmissionsOwnTimeoutWinsAndTheSettingTurnsItOff() {
        long inTime = stage("it-timeout", "a", 1, "sleepMs", "500")[0];
        long own = stage("it-timeout", "b", 1, new SubmitOption[] {SubmitOption.timeout(Duration.ofSeconds(1))}, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        long inTimeExecution = dispatch.status(inTime).executionId().getAsLong();
        long ownExecution = dispatch.status(own).executionId().getAsLong();
        assertThat(db.strings("SELECT run_timeout_ms::text FROM dispatch.inflight_jobs WHERE execution_id IN (?, ?) "
                + "ORDER BY execution_id", inTimeExecution, ownExecution)).containsExactly("3000", "1000");

        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(db.batchStatus(inTimeExecution))
                && "FAILED".equals(db.batchStatus(ownExecution)));
        assertThat(db.strings("SELECT exitstatus FROM job_execution WHERE jobexecutionid = ?", inTimeExecution))
                .containsExactly("COMPLETED");
        assertThat(db.strings("SELECT exitstatus FROM job_execution WHERE jobexecutionid = ?", ownExecution))
                .containsExactly("timed out after 1 s");
        // its retry keeps the submission's own timeout
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            ticks.iterate();
            return dispatch.status(own).attempt() == 2 && dispatch.status(own).state() == SubmissionStatus.State.ADMITTED;
        });
        long retry = dispatch.status(own).executionId().getAsLong();
        assertThat(db.strings("SELECT run_timeout_ms::text FROM dispatch.inflight_jobs WHERE execution_id = ?", retry))
                .containsExactly("1000");

        set("dispatch.policy.it-timeout.timeout", "off");
        long untimed = stage("it-timeout", "c", 1, "sleepMs", "4000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long untimedExecution = dispatch.status(untimed).executionId().getAsLong();
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ? AND run_timeout_ms IS NULL",
                untimedExecution)).as("no timeout with the setting off").isEqualTo(1);
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(db.batchStatus(untimedExecution)));
    }

    @Test
    void aTimeoutSettingThatIsNoPositiveNumberOrNamesAJobThePolicyLacksIsRefusedAndNothingStagedIsTouched() {
        long waiting = stage("it-timeout", "z", 1, "sleepMs", "0")[0];
        set("dispatch.policy.it-timeout.timeout", "0");
        assertThatThrownBy(() -> policies.validateSettings()).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value '0' for dispatch.policy.it-timeout.timeout: expected a number of seconds > 0");
        set("dispatch.policy.it-timeout.timeout", "soon");
        assertThatThrownBy(() -> policies.validateSettings()).hasMessageContaining("'soon' for dispatch.policy.it-timeout.timeout");
        // written live, the policy is held (its partitions say why) and its staged job waits
        ticks.iterate();
        assertThat(dispatch.status(waiting).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(column("last_deny_reason", "it-timeout", "z")).isEqualTo("invalid_settings");
        set("dispatch.policy.it-timeout.timeout", "4");
        set("dispatch.policy.it-timeout.progress-timeout.it-timeot", "4");
        assertThat(names.check()).containsEntry("dispatch.policy.it-timeout.progress-timeout.it-timeot",
                "policy 'it-timeout' governs no job 'it-timeot': did you mean 'it-timeout'?");
        policies.validateSettings();
        // (a held policy's partitions back off; the test does not wait it out)
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = 'it-timeout'");
        assertThat(ticks.iterate().admitted()).as("fixed, the job is admitted").isEqualTo(1);
        assertThat(db.strings("SELECT run_timeout_ms::text FROM dispatch.admissions WHERE submission_id = ?", waiting))
                .as("the submission set no timeout of its own").containsExactly((String) null);
    }
}
