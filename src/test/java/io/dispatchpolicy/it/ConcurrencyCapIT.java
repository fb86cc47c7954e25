package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.application.TickRunner;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two tick workers plus the node's own tick against a concurrency cap of 3 with 1,000 jobs: the cap
 * holds at every moment, seen both from the jobs themselves and from the in-flight table.
 */
class ConcurrencyCapIT extends SystemTest {

    private static final int JOBS = 1_000;

    @Inject
    DispatchOperator dispatch;

    @Inject
    TickRunner ticks;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void theCapHoldsUnderConcurrentWorkers() throws Exception {
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(Params.of("tenant", "cap", "sleepMs", "5"));
        }
        dispatch.submitAll("it-cap3", jobs);
        long partition = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = 'it-cap3' AND partition_key = 'cap'");

        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong inFlightMax = new AtomicLong();
        Callable<Integer> sampler = () -> {
            while (!done.get() && System.nanoTime() < deadline) {
                inFlightMax.accumulateAndGet(
                        db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE partition_id = ?", partition), Math::max);
            }
            return 0;
        };
        Callable<Integer> worker = () -> {
            int admitted = 0;
            while (db.completedExecutions("it-cap3") < JOBS && System.nanoTime() < deadline) {
                admitted += ticks.iterate().admitted();
            }
            return admitted;
        };
        Future<Integer> sampling = executor.submit(sampler);
        List<Future<Integer>> workers = executor.invokeAll(List.of(worker, worker));
        done.set(true);
        sampling.get();

        assertThat(db.completedExecutions("it-cap3")).isEqualTo(JOBS);
        assertThat(workers.get(0).get() + workers.get(1).get()).isPositive();
        assertThat(Running.max("it-cap3/cap")).isBetween(1, 3);
        assertThat(inFlightMax.get()).isBetween(1L, 3L);
        assertThat(db.executionsPerSubmission("it-cap3").values()).hasSize(JOBS).containsOnly(1);
    }
}
