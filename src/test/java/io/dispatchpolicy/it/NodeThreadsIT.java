package io.dispatchpolicy.it;

import io.dispatchpolicy.infrastructure.jberet.BatchThreads;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
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

    /** Partitions the node could not serve keep their place at the front of the next claim and say why. */
    @Test
    void aPartitionLeftForLackOfThreadsSaysSoAndKeepsItsPlace() {
        set("dispatch.node-threads", "2");
        awaitAllFree(2);
        stage(POLICY, "first", 2, "sleepMs", "1000");
        stage(POLICY, "second", 2, "sleepMs", "1000");
        stage(POLICY, "third", 2, "sleepMs", "1000");

        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        List<String> reasons = db.strings("SELECT partition_key || ' ' || coalesce(last_deny_reason, '-') FROM dispatch.partitions "
                + "WHERE policy_name = ? ORDER BY partition_key", POLICY);
        assertThat(reasons).as("one partition admitted two, the others left for a free thread")
                .filteredOn(r -> r.endsWith(" node_threads_busy")).hasSize(2);
        Double wait = secondsUntilEligible(POLICY, "second");
        assertThat(wait == null || wait <= 0).as("claimable at once, by any node: " + wait).isTrue();
        awaitAllFree(2);
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        awaitAllFree(2);
        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        assertThat(db.staged(POLICY)).isZero();
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
