package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.console.jobs.JobControl;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A job's cost (issue 35, deliverable 2; ADR 0035): a job takes the batch threads its job XML says it takes at its
 * widest (1 + a partitioned step's partitions) as slots of its policy's capacity and gates and as tokens of its
 * throttles, and as threads of the node that runs it; a job that could never fit is refused at submission.
 */
class CostIT extends EngineTest {

    private static final String POLICY = "it-cost";
    private static final String THROTTLED = "it-cost-throttle";

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Inject
    JobControl jobs;

    @Test
    void aCapacityOfTenRunsTwoJobsOfThreePartitionsAtATimeAndNeverMoreThanTenThreads() throws Exception {
        awaitNothingInFlight();
        long[] ids = new long[0];
        for (String tenant : List.of("a", "b", "c")) {
            long[] more = stage(POLICY, tenant, 2, "sleepMs", "700");
            ids = java.util.stream.LongStream.concat(Arrays.stream(ids), Arrays.stream(more)).toArray();
        }
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ANY(?) AND cost = 4", (Object) boxed(ids)))
                .as("1 + 3 partitions, from the job XML").isEqualTo(6);
        assertThat(jobs.life(ids[0]).orElseThrow().cost()).isEqualTo(4);

        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicLong maxThreads = new AtomicLong();
        AtomicLong maxJobs = new AtomicLong();
        Future<?> sampler = executor.submit(() -> {
            while (sampling.get()) {
                // JBeret's own rows: the job executions running, and the partitions each has started and not ended
                List<String> row = db.strings("SELECT count(DISTINCT e.jobexecutionid) || ' ' || (count(DISTINCT e.jobexecutionid)"
                        + " + count(pe.partitionexecutionid)) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid"
                        + " LEFT JOIN step_execution s ON s.jobexecutionid = e.jobexecutionid"
                        + " LEFT JOIN partition_execution pe ON pe.stepexecutionid = s.stepexecutionid"
                        + " AND pe.batchstatus IN ('STARTING', 'STARTED')"
                        + " WHERE i.jobname = ? AND e.batchstatus IN ('STARTING', 'STARTED')", POLICY);
                String[] counts = row.get(0).split(" ");
                maxJobs.accumulateAndGet(Long.parseLong(counts[0]), Math::max);
                maxThreads.accumulateAndGet(Long.parseLong(counts[1]), Math::max);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            assertThat(ticks.iterate().admitted()).as("2 x 4 of 10 slots; a third needs 4 of the 2 left").isEqualTo(2);
            assertThat(db.count("SELECT coalesce(sum(cost), 0) FROM dispatch.inflight_jobs WHERE policy_name = ?", POLICY)).isEqualTo(8);
            long[] all = ids;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                ticks.iterate();
                return Arrays.stream(all).allMatch(id -> dispatch.status(id).executionId().isPresent()
                        && "COMPLETED".equals(db.batchStatus(dispatch.status(id).executionId().getAsLong())));
            });
        } finally {
            sampling.set(false);
            sampler.get();
        }
        assertThat(maxJobs.get()).as("jobs running at once").isEqualTo(2);
        assertThat(maxThreads.get()).as("threads of the policy's jobs at once").isBetween(8L, 10L);
    }

    @Test
    void aJobThatCouldNeverFitIsRefusedAtSubmissionWithNothingStaged() {
        assertThatThrownBy(() -> stage(POLICY, "x", 1, "partitions", "11")).isInstanceOf(SubmissionRejectedException.class)
                .hasMessage("Policy 'it-cost': job 'it-cost' costs 12 batch threads (its job XML) but its capacity is 10: "
                        + "it could never be admitted");
        assertThatThrownBy(() -> stage(POLICY, "x", 1, new SubmitOption[] {SubmitOption.cost(11)}))
                .isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("costs 11 batch threads (its SubmitOption.cost) but its capacity is 10");
        assertThatThrownBy(() -> stage(THROTTLED, "x", 1, new SubmitOption[] {SubmitOption.cost(101)}))
                .isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("costs 101 batch threads (its SubmitOption.cost) but its throttle 'throttle' holds 100 tokens at most");
        assertThatThrownBy(() -> SubmitOption.cost(0)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessage("SubmitOption.cost: must be at least 1 and at most 10000, was 0");
        assertThatThrownBy(() -> SubmitOption.cost(-3)).isInstanceOf(SubmissionRejectedException.class);
        set("dispatch.node-threads", "3");
        assertThatThrownBy(() -> stage(POLICY, "x", 1)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("costs 4 batch threads (its job XML) but this node admits jobs of at most 3 batch threads");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id"
                + " WHERE p.policy_name = ? AND p.partition_key = 'x'", POLICY)).isZero();

        // its policy's cost for the job (standalone.xml, live) goes before its job XML; the submission's before both
        set("dispatch.node-threads", "unlimited");
        set("dispatch.policy." + POLICY + ".cost." + POLICY, "2");
        long byPolicy = stage(POLICY, "y", 1)[0];
        long own = stage(POLICY, "y", 1, new SubmitOption[] {SubmitOption.cost(5)})[0];
        set("dispatch.policy." + POLICY + ".cost." + POLICY, "two"); // a typo written live: reported once, skipped
        long afterTypo = stage(POLICY, "y", 1)[0];
        assertThat(db.strings("SELECT cost::text FROM dispatch.staged_jobs WHERE id = ANY(?) ORDER BY id",
                (Object) new Long[] {byPolicy, own, afterTypo})).containsExactly("2", "5", "4");
    }

    @Test
    void aThrottleOfAHundredTokensAMinuteAdmitsTwentyFiveJobsOfCostFourAMinute() {
        stage(THROTTLED, "t", 30, "sleepMs", "0");
        assertThat(ticks.iterate().admitted()).as("100 tokens, 4 a job").isEqualTo(25);
        long first = System.nanoTime();
        assertThat(ticks.iterate().admitted()).isZero();
        assertThat(column("last_deny_reason", THROTTLED, "t")).isEqualTo("throttle_empty");
        // 4 tokens at 100 a minute take 2.4 s; the partition is looked at again when it has 1, and then told
        assertThat(secondsUntilEligible(THROTTLED, "t")).as("never later than the 4 tokens").isLessThanOrEqualTo(2.41);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return admitted(THROTTLED, "t") == 26;
        });
        assertThat((System.nanoTime() - first) / 1e9).as("the 26th waited for its 4 tokens").isGreaterThanOrEqualTo(2.3);
        assertThat(ticks.iterate().admitted()).as("the bucket empty again").isZero();
    }

    @Test
    void aNodeCountsThreadsNotJobs() {
        awaitNothingInFlight();
        set("dispatch.node-threads", "5");
        set("dispatch.node-queue-wait", "off");
        long a = stage(POLICY, "n1", 1, "sleepMs", "1500")[0];
        long b = stage(POLICY, "n2", 1, "sleepMs", "1500")[0];
        assertThat(ticks.iterate().admitted()).as("4 of the node's 5 threads; the other needs 4 of 1").isEqualTo(1);
        assertThat(ticks.iterate().admitted()).as("the thread that is free waits for the job that needs 4").isZero();
        long running = dispatch.status(a).executionId().isPresent() ? a : b;
        long waiting = running == a ? b : a;
        assertThat(dispatch.status(waiting).executionId()).isEmpty();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return dispatch.status(waiting).executionId().isPresent();
        });
        assertThat(db.batchStatus(dispatch.status(running).executionId().getAsLong())).as("only once the first had ended")
                .isEqualTo("COMPLETED");
    }

    @Test
    void partitionsAdmittedTogetherThatNeedMoreThreadsThanAreFreeAreAdmittedOneByOne() {
        // a policy without a capacity admits small partitions in one transaction (ADR 0016); three jobs of cost 4
        // need 12 of the node's 6 threads: the group's transaction rolls back before JBeret's rows, one is admitted
        set("dispatch.node-threads", "6");
        set("dispatch.node-queue-wait", "off");
        long[] ids = new long[3];
        for (int i = 0; i < 3; i++) {
            ids[i] = stage(THROTTLED, "g" + i, 1, "sleepMs", "1000")[0];
        }
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(Arrays.stream(ids).filter(id -> dispatch.status(id).executionId().isPresent()).count()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return Arrays.stream(ids).allMatch(id -> dispatch.status(id).executionId().isPresent());
        });
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = ANY(?) AND cost = 4", (Object) boxed(ids)))
                .isEqualTo(3);
    }

    private void awaitNothingInFlight() {
        await().atMost(Duration.ofSeconds(60)).until(() ->
                db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ?", POLICY) == 0);
    }

    private static Long[] boxed(long[] ids) {
        return Arrays.stream(ids).boxed().toArray(Long[]::new);
    }
}
