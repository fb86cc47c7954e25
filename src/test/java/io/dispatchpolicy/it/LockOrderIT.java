package io.dispatchpolicy.it;

import io.dispatchpolicy.console.PolicyControl;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pause and resume lock a policy's partitions in the order bulk staging does, whatever plan the
 * database picks: here a sequential scan over rows stored in the reverse of that order, with keys
 * whose case a linguistic collation would sort differently.
 */
class LockOrderIT extends EngineTest {

    private static final String POLICY = "it-order";
    private static final int KEYS = 150;
    private static final int ROUNDS = 15;

    @Inject
    PolicyControl control;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void pauseAndResumeNeverDeadlockWithConcurrentBulkStaging() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            keys.add((i % 2 == 0 ? "Tenant-" : "tenant-") + i);
        }
        // created one by one in reverse order: the heap holds them against the lock order
        keys.stream().sorted(Comparator.reverseOrder()).forEach(k -> stage(POLICY, k, 1));

        Callable<Integer> staging = () -> {
            for (int r = 0; r < ROUNDS; r++) {
                List<Properties> jobs = new ArrayList<>();
                keys.forEach(k -> jobs.add(Params.of("tenant", k)));
                dispatch.submitAll(POLICY, jobs);
            }
            return ROUNDS;
        };
        Callable<Integer> pausing = () -> {
            for (int r = 0; r < ROUNDS; r++) {
                db.withSequentialScans(() -> control.pause(POLICY, Operators.ADMIN));
                db.withSequentialScans(() -> control.resume(POLICY, Operators.ADMIN));
            }
            return ROUNDS;
        };
        List<Future<Integer>> both = executor.invokeAll(List.of(staging, pausing));
        // a deadlock would surface here as PostgreSQL's 40P01 in one of them
        assertThat(both.get(0).get()).isEqualTo(ROUNDS);
        assertThat(both.get(1).get()).isEqualTo(ROUNDS);
        assertThat(db.count("SELECT coalesce(sum(pending_count), 0) FROM dispatch.partitions WHERE policy_name = ?", POLICY))
                .isEqualTo((long) KEYS * (ROUNDS + 1));
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ? AND paused", POLICY)).isZero();
    }
}
