package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.tick.TickRunner;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
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
        // other tests run it-cap3 jobs too: this one counts from what ran before it, and its own submissions
        long completedBefore = db.completedExecutions("it-cap3");
        java.util.Set<Long> ids = java.util.Arrays.stream(dispatch.submitAll("it-cap3", jobs)).boxed()
                .collect(java.util.stream.Collectors.toSet());
        long partition = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = 'it-cap3' AND partition_key = 'cap'");

        AtomicLong inFlightMax = new AtomicLong();
        int admitted = TickWorkers.run(executor, ticks, () -> db.completedExecutions("it-cap3") >= completedBefore + JOBS,
                Duration.ofMinutes(4),
                () -> inFlightMax.accumulateAndGet(
                        db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE partition_id = ?", partition), Math::max));

        assertThat(db.completedExecutions("it-cap3")).isEqualTo(completedBefore + JOBS);
        assertThat(admitted).isPositive();
        assertThat(Running.max("it-cap3/cap")).isBetween(1, 3);
        assertThat(inFlightMax.get()).isBetween(1L, 3L);
        assertThat(db.executionsPerSubmission("it-cap3").entrySet().stream().filter(e -> ids.contains(e.getKey()))
                .map(java.util.Map.Entry::getValue).toList()).hasSize(JOBS).containsOnly(1);
    }
}
