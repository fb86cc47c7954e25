package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.application.TickRunner;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two tick workers (plus the node's own timer) running at once never admit the same staged job. */
class ConcurrentTickIT extends SystemTest {

    private static final int JOBS = 2_000;
    private static final int TENANTS = 20;

    @Inject
    DispatchOperator dispatch;

    @Inject
    TickRunner ticks;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void everySubmissionGetsExactlyOneExecution() throws Exception {
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(Params.of("tenant", "tenant-" + (i % TENANTS)));
        }
        long[] ids = dispatch.submitAll("it-concurrent", jobs);

        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        Callable<Integer> worker = () -> {
            int admitted = 0;
            while (db.staged("it-concurrent") > 0 && System.nanoTime() < deadline) {
                admitted += ticks.iterate().admitted();
            }
            return admitted;
        };
        List<Future<Integer>> workers = executor.invokeAll(List.of(worker, worker));
        int byWorkers = workers.get(0).get() + workers.get(1).get();
        assertThat(db.staged("it-concurrent")).isZero();
        assertThat(byWorkers).isBetween(1, JOBS);

        Map<Long, Integer> perSubmission = db.executionsPerSubmission("it-concurrent");
        assertThat(perSubmission).hasSize(JOBS);
        assertThat(perSubmission.keySet()).containsExactlyInAnyOrderElementsOf(Arrays.stream(ids).boxed().toList());
        assertThat(perSubmission.values()).containsOnly(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id "
                + "WHERE p.policy_name = 'it-concurrent'")).isEqualTo(JOBS);
        assertThat(db.count("SELECT sum(pending_count) FROM dispatch.partitions WHERE policy_name = 'it-concurrent'")).isZero();
        assertThat(db.count("SELECT sum(total_admitted) FROM dispatch.partitions WHERE policy_name = 'it-concurrent'"))
                .isEqualTo(JOBS);

        await().atMost(Duration.ofMinutes(3)).until(() -> db.completedExecutions("it-concurrent") == JOBS);
        for (long id : ids) {
            assertThat(Runs.of(dispatch.status(id).executionId().orElseThrow())).isEqualTo(1);
        }
    }
}
