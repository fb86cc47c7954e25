package io.dispatchpolicy.it;

import io.dispatchpolicy.infrastructure.jberet.BatchThreads;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node admits only what its batch threads can start (issue 34, ADR 0027): with {@code dispatch.node-threads}
 * at 3, an iteration admits 3 of a policy that nothing else bounds, the next admits none while those run
 * (the partitions keep their place, saying why), and a thread that frees is filled at the next iteration.
 */
class NodeThreadsIT extends EngineTest {

    private static final String POLICY = "it-threads";

    @Inject
    BatchThreads threads;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @BeforeEach
    void noQueue() {
        // the threads alone: a queue's size depends on how long earlier jobs held a thread (its own test)
        set("dispatch.node-queue-wait", "off");
    }

    /** Unset, the node counts what its pool can start: the test server's pool of 10 starts 9. */
    @Test
    void byDefaultANodeFillsWhatItsPoolCanStart() {
        set("dispatch.node-threads", "auto");
        System.clearProperty("dispatch.node-threads"); // restored after the test, as every setting
        assertThat(threads.size()).isEqualTo(9);
        set("dispatch.node-threads", "unlimited");
        assertThat(threads.size()).isEqualTo(Integer.MAX_VALUE);
        assertThat(threads.reserve(5)).as("unlimited: nothing is counted").isEqualTo(5);
    }

    /**
     * Beyond its threads a node queues the jobs that end within the queue's wait at its recent rate of
     * ends, never more than four times its threads: with a wait so long that the last few ends cover it,
     * 3 threads and a queue of 12; with the wait off, the threads alone.
     */
    @Test
    void aNodeWhoseJobsEndedLatelyAlsoQueuesUpToFourTimesItsThreads() {
        set("dispatch.node-threads", "3");
        awaitAllFree(3);
        stage(POLICY, "warm", 3); // no-op jobs: the node has seen jobs end
        assertThat(ticks.iterate().admitted()).isEqualTo(3);
        awaitAllFree(3);
        set("dispatch.node-queue-wait", "1000000"); // any end of the last seconds covers the cap
        long before = createdExecutions();
        stage(POLICY, "a", 10, "sleepMs", "1500");
        stage(POLICY, "b", 10, "sleepMs", "1500");

        assertThat(ticks.iterate().admitted()).as("3 threads and a queue of 4 x 3").isEqualTo(15);
        assertThat(threads.free()).isZero();
        assertThat(ticks.iterate().admitted()).isZero();
        assertThat(createdExecutions() - before).isEqualTo(15);
        set("dispatch.node-queue-wait", "off");
        await("the queue drained").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
                .until(() -> threads.free() == 3);
        assertThat(ticks.iterate().admitted()).as("no queue: the threads alone").isEqualTo(3);
        awaitAllFree(3);
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        awaitAllFree(3);
        assertThat(completedSince(before)).isEqualTo(20);
    }

    /** A typo written live is reported and changes nothing: the node keeps the threads it counted. */
    @Test
    void aBadValueWrittenLiveKeepsTheLastValidOne() {
        set("dispatch.node-threads", "2");
        awaitAllFree(2);
        set("dispatch.node-threads", "lots");
        assertThat(threads.size()).isEqualTo(2);
        stage(POLICY, "typo", 3, "sleepMs", "500");
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        assertThat(db.staged(POLICY)).isEqualTo(1);
        set("dispatch.node-threads", "3");
        awaitAllFree(3);
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        awaitAllFree(3);
    }

    @Test
    void anIterationAdmitsNoMoreThanTheFreeThreadsAndFillsThemAgainAsTheyFree() {
        set("dispatch.node-threads", "3");
        awaitAllFree(3);
        long before = createdExecutions();
        stage(POLICY, "a", 4, "sleepMs", "1500");
        stage(POLICY, "b", 4, "sleepMs", "1500");

        assertThat(ticks.iterate().admitted()).isEqualTo(3);
        assertThat(threads.free()).isZero();
        assertThat(ticks.iterate().admitted()).as("every thread is taken: nothing is claimed").isZero();
        assertThat(db.staged(POLICY)).isEqualTo(5);
        assertThat(createdExecutions() - before).as("never more executions than the node's threads").isEqualTo(3);

        awaitAllFree(3);
        assertThat(ticks.iterate().admitted()).isEqualTo(3);
        assertThat(createdExecutions() - before).isEqualTo(6);

        set("dispatch.node-threads", "4"); // one more thread: the next iteration fills it alone
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(db.staged(POLICY)).isEqualTo(1);
        assertThat(threads.free()).isZero();

        awaitAllFree(4);
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        awaitAllFree(4);
        assertThat(createdExecutions() - before).isEqualTo(8);
        assertThat(completedSince(before)).isEqualTo(8);
    }

    /**
     * The claim takes no more partitions than the node has free threads, and the partitions it reached
     * share them, a job each; the rest are not claimed at all, so they stay first in line for any node.
     */
    @Test
    void theFreeThreadsGoAJobToEachPartitionReachedAndTheRestStayUnclaimed() {
        set("dispatch.node-threads", "2");
        awaitAllFree(2);
        stage(POLICY, "first", 2, "sleepMs", "1000");
        stage(POLICY, "second", 2, "sleepMs", "1000");
        stage(POLICY, "third", 2, "sleepMs", "1000");

        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        List<String> left = db.strings("SELECT partition_key || ' ' || pending_count || ' ' || coalesce(last_deny_reason, '-') "
                + "FROM dispatch.partitions WHERE policy_name = ? AND partition_key IN ('first', 'second', 'third') "
                + "ORDER BY partition_key", POLICY);
        assertThat(left).as("one job each of the two partitions claimed, none denied; the third untouched")
                .containsExactly("first 1 -", "second 1 -", "third 2 -");
        Double wait = secondsUntilEligible(POLICY, "third");
        assertThat(wait == null || wait <= 0).as("claimable at once, by any node: " + wait).isTrue();
        awaitAllFree(2);
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        awaitAllFree(2);
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        assertThat(db.strings("SELECT partition_key FROM dispatch.partitions WHERE policy_name = ? AND pending_count > 0 "
                + "AND partition_key IN ('first', 'second', 'third')", POLICY)).isEmpty();
        awaitAllFree(2);
    }

    /** Two workers iterating at once share the node's threads: together they admit exactly the free ones. */
    @Test
    void twoWorkersIteratingAtOnceTogetherAdmitExactlyTheFreeThreads() throws Exception {
        set("dispatch.node-threads", "4");
        awaitAllFree(4);
        long before = createdExecutions();
        for (int t = 0; t < 8; t++) {
            stage(POLICY, "w" + t, 3, "sleepMs", "1500");
        }
        for (int round = 0; round < 3; round++) {
            CyclicBarrier together = new CyclicBarrier(2);
            Callable<Integer> worker = () -> {
                together.await();
                return ticks.iterate().admitted();
            };
            List<Future<Integer>> both = executor.invokeAll(List.of(worker, worker));
            assertThat(both.get(0).get() + both.get(1).get()).as("round %s", round).isEqualTo(4);
            assertThat(threads.free()).isZero();
            awaitAllFree(4);
        }
        assertThat(createdExecutions() - before).isEqualTo(12);
        assertThat(db.staged(POLICY)).isEqualTo(12);
    }

    private void awaitAllFree(int size) {
        await("all " + size + " threads free").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
                .until(() -> threads.size() == size && threads.free() == size);
    }

    /** Executions of the policy's job created after the first {@code before} ones that ended COMPLETED. */
    private long completedSince(long before) {
        return db.count("SELECT count(*) FROM (SELECT e.batchstatus FROM job_execution e JOIN job_instance i "
                + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? ORDER BY e.jobexecutionid OFFSET ?) x "
                + "WHERE x.batchstatus = 'COMPLETED'", POLICY, before);
    }

    private long createdExecutions() {
        return db.count("SELECT count(*) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ?", POLICY);
    }
}
