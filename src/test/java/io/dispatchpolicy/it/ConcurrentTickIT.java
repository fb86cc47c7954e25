package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.tick.TickRunner;
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

/**
 * Two tick workers (plus the node's own) running at once never admit the same staged job; the node's
 * own {@code dispatch.tick-workers} tick side by side and hold a concurrency cap.
 */
class ConcurrentTickIT extends SystemTest {

    private static final int JOBS = 2_000;
    private static final int TENANTS = 20;

    @Inject
    DispatchOperator dispatch;

    @Inject
    TickRunner ticks;

    @Inject
    io.dispatchpolicy.node.ThisNode node;

    @Inject
    io.dispatchpolicy.lifecycle.TickLoop loop;

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

    @Test
    void theNodesOwnWorkersTickSideBySideAndHoldTheCap() {
        assertThat(loop.workers()).as("dispatch.tick-workers by default").isEqualTo(4);
        long samplesBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.tick_samples");
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            jobs.add(Params.of("tenant", "workers-" + (i % 4), "sleepMs", "20"));
        }
        dispatch.submitAll("it-workers", jobs);

        await().atMost(Duration.ofMinutes(3)).until(() -> db.count("SELECT count(*) FROM job_execution e JOIN job_instance i "
                + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = 'it-workers' AND e.batchstatus = 'COMPLETED' "
                + "AND e.jobparameters LIKE '%workers-%'") == 600);

        // a tick writes its sample when it ends (idle, or at tick-max-duration): wait for them
        await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM dispatch.tick_samples a "
                + "JOIN dispatch.tick_samples b ON a.node_id = b.node_id AND a.id < b.id "
                + "AND a.started_at < b.started_at + b.duration_ms * interval '1 millisecond' "
                + "AND b.started_at < a.started_at + a.duration_ms * interval '1 millisecond' "
                + "WHERE a.node_id = ? AND a.id > ? AND a.admitted > 0 AND b.admitted > 0", node.id(), samplesBefore) > 0);
        for (int t = 0; t < 4; t++) {
            assertThat(Running.max("it-workers/workers-" + t)).as("running at once for tenant %s", t).isBetween(1, 3);
        }
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id "
                + "WHERE p.policy_name = 'it-workers' AND p.partition_key LIKE 'workers-%'")).isEqualTo(600);
    }
}
