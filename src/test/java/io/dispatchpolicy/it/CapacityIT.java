package io.dispatchpolicy.it;

import io.dispatchpolicy.tick.IterationReport;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A policy's capacity ({@code it-capacity}: 4 in flight across its partitions, each partition capped at
 * 5): what one iteration admits, the reason and place of a partition it denies, standalone.xml's
 * constant over the declaration, and the cap under two concurrent tick workers.
 */
class CapacityIT extends EngineTest {

    private static final String POLICY = "it-capacity";

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    private long policyInFlight() {
        return db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ?", POLICY);
    }

    private void awaitNothingInFlight() {
        await().atMost(Duration.ofSeconds(60)).until(() -> policyInFlight() == 0);
    }

    @Test
    void aFullPolicyDeniesEveryPartitionAndFreedSlotsAreSharedInOneIteration() {
        awaitNothingInFlight();
        stage(POLICY, "a", 10);
        stage(POLICY, "b", 10);
        occupySlots(POLICY, "a", 4);

        ticks.iterate();
        assertThat(admitted(POLICY, "a") + admitted(POLICY, "b")).isZero();
        for (String key : List.of("a", "b")) {
            assertThat(column("last_deny_reason", POLICY, key)).isEqualTo("capacity_full");
            assertThat(secondsUntilEligible(POLICY, key)).as("no backoff: it is the policy that is full").isNull();
        }

        freeSlots(POLICY, "a");
        IterationReport report = ticks.iterate();
        assertThat(report.denied()).doesNotContainKey("capacity_full");
        assertThat(admitted(POLICY, "a")).isEqualTo(2);
        assertThat(admitted(POLICY, "b")).isEqualTo(2);
    }

    @Test
    void standaloneXmlsConstantReplacesTheDeclaredCapacityLive() {
        awaitNothingInFlight();
        stage(POLICY, "c", 20);
        set("dispatch.policy." + POLICY + ".capacity", "1");
        ticks.iterate();
        assertThat(admitted(POLICY, "c")).isEqualTo(1);

        awaitNothingInFlight();
        set("dispatch.policy." + POLICY + ".capacity", "none");
        ticks.iterate();
        assertThat(admitted(POLICY, "c")).as("only the partition's cap of 5 binds").isEqualTo(6);
    }

    @Test
    void theCapacityHoldsAcrossPartitionsUnderTwoTickWorkers() throws Exception {
        awaitNothingInFlight();
        int jobs = 1_000;
        long since = db.count("SELECT coalesce(max(jobexecutionid), 0) FROM job_execution");
        long completedBefore = db.completedExecutions(POLICY);
        for (int t = 0; t < 10; t++) {
            stage(POLICY, "w" + t, jobs / 10, "sleepMs", "5");
        }

        AtomicLong inFlightMax = new AtomicLong();
        int admitted = TickWorkers.run(executor, ticks, () -> db.completedExecutions(POLICY) >= completedBefore + jobs,
                Duration.ofMinutes(4), () -> inFlightMax.accumulateAndGet(policyInFlight(), Math::max));

        assertThat(db.completedExecutions(POLICY) - completedBefore).isEqualTo(jobs);
        assertThat(admitted).isPositive();
        assertThat(db.count("SELECT sum(total_admitted) FROM dispatch.partitions WHERE policy_name = ? AND partition_key LIKE 'w%'",
                POLICY)).isEqualTo(jobs);
        assertThat(inFlightMax.get()).as("in flight across the policy, sampled").isBetween(1L, 4L);
        assertThat(Running.max(POLICY)).as("running at once, seen by the jobs").isBetween(1, 4);
        // JBeret's own times: at no instant more than 4 executions between start and end (an end at the
        // same millisecond as a start is counted first: the slot was freed before the next admission)
        long overlap = db.count("SELECT coalesce(max(running), 0) FROM (SELECT sum(d) OVER (ORDER BY t, d "
                + "ROWS UNBOUNDED PRECEDING) AS running FROM (SELECT e.starttime AS t, 1 AS d FROM job_execution e "
                + "JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.jobexecutionid > ? "
                + "UNION ALL SELECT e.endtime, -1 FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ? AND e.jobexecutionid > ?) x) y", POLICY, since, POLICY, since);
        assertThat(overlap).as("executions running at once, from JBeret's start and end times").isBetween(1L, 4L);
        assertThat(db.executionsPerSubmission(POLICY).values()).containsOnly(1);
    }
}
