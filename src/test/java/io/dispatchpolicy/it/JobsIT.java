package io.dispatchpolicy.it;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobLife;
import io.dispatchpolicy.console.jobs.JobQuery;
import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.console.jobs.JobRow;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Jobs view's engine side: a job is found by its submission id, an execution id, its job name, its
 * partition and a parameter, whether staged, admitted or dead; its life shows each execution with its
 * steps and why it ran; stop, restart through the policy and discard act on it.
 */
class JobsIT extends EngineTest {

    private static final String POLICY = "it-jobs";

    @Inject
    JobControl jobs;

    @Test
    void theListsByStateHoldTheirJobsNewestFirstWithTheirCounts() {
        java.util.Map<String, Long> before = jobs.stateCounts();
        assertThat(before).containsOnlyKeys("staged", "running", "failed", "dead");

        // dead: no retry; then failed (its dead row discarded: it failed, and neither retries nor is dead)
        long dying = stage("it-deadnow", "jv-dead", 1, "fail", "true")[0];
        long running = stage("it-stop", "jv-run", 1, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(30)).until(() -> dispatch.status(dying).state() == io.dispatchpolicy.api.SubmissionStatus.State.DEAD
                && "STARTED".equals(db.batchStatus(dispatch.status(running).executionId().getAsLong())));
        long[] staged = stage(POLICY, "jv-staged", 2);
        try {
            // newest first (a schedule's occurrence may be staged meanwhile: a subsequence, not the whole page)
            assertThat(ids(jobs.find(new JobQuery(JobQuery.By.STATE, "staged", null, 0, 500)))).containsSubsequence(staged[1], staged[0]);
            assertThat(ids(jobs.find(new JobQuery(JobQuery.By.STATE, "Running", null, 0, 500)))).contains(running);
            assertThat(ids(jobs.find(new JobQuery(JobQuery.By.STATE, "dead", null, 0, 500)))).contains(dying);
            // counted from other rows than the lists (counters, in-flight rows): each holds at least this test's jobs
            java.util.Map<String, Long> now = jobs.stateCounts();
            assertThat(now.get("staged")).isGreaterThanOrEqualTo(2);
            assertThat(now.get("running")).isGreaterThanOrEqualTo(1);
            assertThat(now.get("dead")).isGreaterThanOrEqualTo(1);

            assertThat(jobs.discard(dying, Operators.OPERATOR)).isEqualTo("Dead job " + dying + " discarded.");
            assertThat(ids(jobs.find(new JobQuery(JobQuery.By.STATE, "failed", null, 0, 500)))).contains(dying);
            assertThat(jobs.stateCounts().get("failed")).isGreaterThanOrEqualTo(1);
            assertThatThrownBy(() -> new JobQuery(JobQuery.By.STATE, "sleeping", null, 0, 50)).isInstanceOf(JobRequestRefused.class)
                    .hasMessageContaining("[staged, running, failed, dead]");
        } finally {
            jobs.stop(running, Operators.OPERATOR);
            await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(db.batchStatus(dispatch.status(running).executionId().getAsLong())));
        }
    }

    @Test
    void aJobIsFoundByEachKeyStagedAndThenAdmitted() {
        long[] ids = stage(POLICY, "j1", 2, "order", "o-77");
        stage(POLICY, "j2", 1, "order", "o-78");

        assertThat(ids(find(JobQuery.By.SUBMISSION, Long.toString(ids[0]), null))).containsExactly(ids[0]);
        assertThat(find(JobQuery.By.PARTITION, "j1", POLICY)).extracting(JobRow::state).containsOnly("STAGED");
        assertThat(ids(find(JobQuery.By.PARTITION, "j1", POLICY))).containsExactly(ids[1], ids[0]);
        assertThat(ids(find(JobQuery.By.PARAMETER, "order=o-77", null))).containsExactly(ids[1], ids[0]);

        assertThat(ticks.iterate().admitted()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> find(JobQuery.By.PARTITION, "j1", POLICY).stream()
                .allMatch(j -> "COMPLETED".equals(j.batchStatus())));

        List<JobRow> admitted = find(JobQuery.By.PARTITION, "j1", POLICY);
        assertThat(ids(admitted)).containsExactly(ids[1], ids[0]);
        assertThat(admitted).extracting(JobRow::state).containsOnly("ADMITTED");
        assertThat(admitted).extracting(JobRow::jobName).containsOnly(POLICY);
        // JBeret's copy of the parameters, through its own table
        assertThat(ids(find(JobQuery.By.PARAMETER, "order = o-77", null))).containsExactly(ids[1], ids[0]);
        assertThat(ids(find(JobQuery.By.PARAMETER, "order=o-7", null))).isEmpty();
        assertThat(ids(find(JobQuery.By.JOB, POLICY, null))).contains(ids[0], ids[1]);
        long execution = admitted.get(1).executionId();
        assertThat(ids(find(JobQuery.By.EXECUTION, Long.toString(execution), null))).containsExactly(ids[0]);
        // keyset paging: the page after the newest holds the older one
        assertThat(ids(jobs.find(new JobQuery(JobQuery.By.PARTITION, "j1", POLICY, ids[1], 10)))).containsExactly(ids[0]);

        JobLife life = jobs.life(ids[0]).orElseThrow();
        assertThat(life.job().policy()).isEqualTo(POLICY);
        assertThat(life.job().partitionKey()).isEqualTo("j1");
        assertThat(life.job().stagedAt()).isNotNull();
        assertThat(life.priority()).isZero();
        assertThat(life.admittedAt()).isAfterOrEqualTo(life.job().stagedAt());
        assertThat(life.admittedBy()).isEqualTo("it-node");
        assertThat(life.executions()).hasSize(1);
        assertThat(life.executions().get(0).reason()).isEqualTo("submitted");
        assertThat(life.executions().get(0).steps()).extracting(s -> s.stepName() + ":" + s.batchStatus()).containsExactly("run:COMPLETED");
        assertThat(life.parameters()).contains("order = o-77");
        assertThat(life.stoppable()).isFalse();
        assertThat(life.restartable()).isFalse();
    }

    @Test
    void aFailedJobRestartedThroughItsPolicyShowsBothExecutionsAndWhy() {
        long id = stage(POLICY, "f1", 1, "fail", "true")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(jobs.life(id).orElseThrow().job().batchStatus()));
        assertThat(jobs.life(id).orElseThrow().restartable()).isTrue();

        assertThat(jobs.restart(id, Operators.ADMIN)).contains("staged for restart");
        assertThat(jobs.life(id).orElseThrow().job().state()).isEqualTo("STAGED");
        assertThat(jobs.life(id).orElseThrow().restartable()).as("nothing is restarted twice").isFalse();
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            JobLife life = jobs.life(id).orElseThrow();
            return life.executions().size() == 2 && "FAILED".equals(life.latest().batchStatus());
        });

        JobLife life = jobs.life(id).orElseThrow();
        assertThat(life.job().state()).isEqualTo("ADMITTED");
        long first = life.executions().get(0).executionId();
        assertThat(life.executions().get(0).steps().get(0).failure()).contains("failing as asked");
        assertThat(life.executions().get(1).reason()).startsWith("restart after execution " + first + " failed")
                .contains("failing as asked");
        assertThat(life.attempt()).isEqualTo(1);
        // both executions lead to the job
        assertThat(ids(find(JobQuery.By.EXECUTION, Long.toString(first), null))).containsExactly(id);
        assertThat(ids(find(JobQuery.By.EXECUTION, Long.toString(life.latest().executionId()), null))).containsExactly(id);
    }

    @Test
    void aRunningJobIsStoppedAndAStagedOneDiscarded() {
        long running = stage(POLICY, "s1", 1, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.life(running).orElseThrow().stoppable()
                && "STARTED".equals(jobs.life(running).orElseThrow().job().batchStatus()));
        assertThat(jobs.stop(running, Operators.ADMIN)).contains("to stop");
        await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(jobs.life(running).orElseThrow().job().batchStatus()));

        long staged = stage(POLICY, "s2", 1)[0];
        assertThat(jobs.life(staged).orElseThrow().discardable()).isTrue();
        assertThat(jobs.discard(staged, Operators.ADMIN)).isEqualTo("Staged job " + staged + " discarded.");
        assertThat(jobs.life(staged)).isEmpty();
        assertThat(db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 's2'", POLICY))
                .isZero();
        assertThat(jobs.discard(running, Operators.ADMIN)).contains("only those can be discarded");
    }

    @Test
    void aMalformedSearchIsRefusedWithWhatToWrite() {
        assertThatThrownBy(() -> new JobQuery(JobQuery.By.SUBMISSION, "12a", null, 0, 10)).isInstanceOf(JobRequestRefused.class)
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> new JobQuery(JobQuery.By.PARAMETER, "tenant", null, 0, 10)).hasMessageContaining("name=value");
        assertThatThrownBy(() -> new JobQuery(JobQuery.By.PARTITION, "k", " ", 0, 10)).hasMessageContaining("name the policy");
        assertThatThrownBy(() -> new JobQuery(JobQuery.By.KEY, "order=1", null, 0, 10)).hasMessageContaining("A key is found within its policy");
        assertThatThrownBy(() -> JobQuery.by("tenant")).hasMessageContaining("submission, execution, job, partition, parameter, key, group or state");
        assertThatThrownBy(() -> jobs.life(Long.MAX_VALUE - 1).orElseThrow(() -> new IllegalStateException("none")))
                .hasMessage("none");
        assertThatThrownBy(() -> jobs.stop(Long.MAX_VALUE - 1, Operators.ADMIN)).isInstanceOf(JobRequestRefused.class).hasMessageContaining("No job");
    }

    private List<JobRow> find(JobQuery.By by, String value, String policy) {
        return jobs.find(new JobQuery(by, value, policy, 0, 50));
    }

    private static List<Long> ids(List<JobRow> rows) {
        return rows.stream().map(JobRow::submissionId).toList();
    }
}
