package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Execution;
import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (j) Two nodes of 10 job threads each (a pool of 11: JBeret keeps one for running jobs' steps) share a storm of 200 jobs of 2.5 s over 20 tenants (cap 3: 60 could
 * run, 20 threads can): each node admits only what its threads can start (issue 34, ADR 0027), so the
 * nodes split the work about evenly (each 45–55 % of the admissions), no admitted job waits in a pool
 * (JBeret's create to start: at most 1 s), and the storm ends within 1.2 × of 200 × 2.5 s / 20 threads (jobs of seconds: the
 * node queues none beyond its threads, ADR 0027; 5 s until CI time had to be cut).
 * Before, the first node to iterate took all 60 slots and queued 50 jobs behind its 10 threads.
 */
class NodeThreadsFaultIT {

    private static final String A = "a";
    private static final String B = "b";
    private static final int JOBS = 200;
    private static final int TENANTS = 20;
    private static final long SLEEP_MS = 2_500;
    private static final int THREADS_PER_NODE = 10;
    /** 200 jobs × 2.5 s over 2 × 10 threads. */
    private static final Duration IDEAL = Duration.ofMillis(JOBS * SLEEP_MS / (2 * THREADS_PER_NODE));

    @Test
    void twoNodesShareAStormByTheirThreadsAndNoAdmittedJobWaitsInAPool() {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        // JBeret keeps one thread of the pool for running jobs' steps: a pool of 11 starts 10 jobs at once
        String threads = "-Ddispatch.batch.max-threads=" + (THREADS_PER_NODE + 1);
        String limited = "-Ddispatch.node-threads=auto";
        List<ServerSpec> specs = List.of(
                ServerSpec.named(B, 100).withNodeName("fault-node-b").withProperties(threads, limited),
                ServerSpec.named(A, 0).withNodeName("fault-node-a").withProperties(threads, limited));
        try (FaultRun run = FaultRun.start("j-node-threads", "two nodes of 10 batch threads share 200 jobs of 2.5 s over "
                + "20 tenants with a cap of 3", settings, specs, List.of(Workload.STORM))) {
            UUID a = run.bootId(A);
            UUID b = run.bootId(B);
            run.noFault("none: the storm is the test");
            run.submitStormThrough(Workload.STORM, JOBS, TENANTS, Long.toString(SLEEP_MS), A, B);

            run.checkAlso(() -> {
                try {
                    long byA = admittedBy(run, a);
                    long byB = admittedBy(run, b);
                    run.note("admittedByA", byA);
                    run.note("admittedByB", byB);
                    double share = (double) byA / (byA + byB);
                    return share >= 0.45 && share <= 0.55 ? Optional.empty()
                            : Optional.of("a admitted " + byA + " and b " + byB + ": not 45–55 % each");
                } catch (SQLException e) {
                    return Optional.of("could not count admissions by node: " + e);
                }
            });
            run.checkAlso(() -> {
                List<Execution> executions = run.observations().executions();
                Duration longest = executions.stream().filter(e -> e.started() != null)
                        .map(e -> Duration.between(e.created(), e.started())).max(Comparator.naturalOrder()).orElse(Duration.ZERO);
                run.note("longestWaitInAPoolMs", longest.toMillis());
                return longest.compareTo(Duration.ofSeconds(1)) <= 0 ? Optional.empty()
                        : Optional.of("an admitted job waited " + longest.toMillis() + " ms in a pool (at most 1,000)");
            });
            run.checkAlso(() -> {
                List<Execution> executions = run.observations().executions();
                Instant first = executions.stream().map(Execution::created).min(Comparator.naturalOrder()).orElseThrow();
                Instant last = executions.stream().map(Execution::ended).filter(Objects::nonNull).max(Comparator.naturalOrder())
                        .orElseThrow();
                Duration storm = Duration.between(first, last);
                run.note("stormSeconds", storm.toMillis() / 1000.0);
                run.note("idealSeconds", IDEAL.toMillis() / 1000.0);
                return storm.toMillis() <= IDEAL.toMillis() * 12 / 10 ? Optional.empty()
                        : Optional.of("the storm took " + storm.toMillis() / 1000.0 + " s, more than 1.2 × " + IDEAL.toSeconds() + " s");
            });

            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /** First admissions made by {@code node} (restarts would be counted too: there are none in this storm). */
    private static long admittedBy(FaultRun run, UUID node) throws SQLException {
        try (Connection c = run.database().connect(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM dispatch.admissions WHERE node_id = ?")) {
            s.setObject(1, node);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
