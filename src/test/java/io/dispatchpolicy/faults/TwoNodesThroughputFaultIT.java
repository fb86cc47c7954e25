package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Execution;
import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The limits benchmark's two nodes (issue 34, deliverable 6; not in the default fault list:
 * {@code -Dfault.tests=TwoNodesThroughputFaultIT}): 20,000 no-op jobs over 2,000 tenants (the storm policy's
 * cap of 3 never binds) submitted through one node, then, in a second run, through two nodes on the same
 * database — each with its default 10 batch threads — and every job checked exactly once (the fault suite's
 * invariants). Executions completed per second, first creation to last end, in each scenario's summary.
 * On one machine the two servers share its cores: this measures what coordinating through the database
 * costs, not what a second machine adds.
 */
class TwoNodesThroughputFaultIT {

    private static final int JOBS = 20_000;
    private static final int TENANTS = 2_000;

    @Test
    void oneNode() {
        storm("l-one-node-throughput", List.of(ServerSpec.named("a", 0).withNodeName("fault-node-a")), "a");
    }

    @Test
    void twoNodes() {
        storm("l-two-nodes-throughput", List.of(ServerSpec.named("b", 100).withNodeName("fault-node-b"),
                ServerSpec.named("a", 0).withNodeName("fault-node-a")), "a", "b");
    }

    private static void storm(String scenario, List<ServerSpec> specs, String... through) {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        try (FaultRun run = FaultRun.start(scenario, JOBS + " no-op jobs over " + TENANTS + " tenants through "
                + through.length + " node(s)", settings, specs, List.of(Workload.STORM))) {
            run.noFault("none: throughput");
            run.submitStormThrough(Workload.STORM, JOBS, TENANTS, "0", through);
            run.checkAlso(() -> {
                List<Execution> executions = run.observations().executions();
                Instant first = executions.stream().map(Execution::created).min(Comparator.naturalOrder()).orElseThrow();
                Instant last = executions.stream().map(Execution::ended).filter(Objects::nonNull).max(Comparator.naturalOrder())
                        .orElseThrow();
                double seconds = Duration.between(first, last).toMillis() / 1000.0;
                run.note("completedPerSecond", Math.round(executions.stream().filter(Execution::completed).count() / seconds));
                return java.util.Optional.empty();
            });
            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }
}
