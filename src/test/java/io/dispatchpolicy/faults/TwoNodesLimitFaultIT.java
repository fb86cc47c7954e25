package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.check.Execution;
import io.dispatchpolicy.faults.check.Invariants;
import io.dispatchpolicy.faults.check.NodeInflight;
import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (m) A named limit across two nodes (issue 38; ADR 0049): two policies ({@code fault-limit-a}, {@code fault-limit-b})
 * share the limit {@code fault-api} of 5 per tenant and 8 in all. Both storms are submitted through both nodes, each
 * node admitting in groups from the shared tables; once both nodes run limited jobs, {@code b}'s JVM is killed and not
 * restarted: {@code a} takes its rows (its jobs held their keys until then) and drains both storms alone.
 *
 * <p>Besides the storms' invariants (exactly once, nothing left), over both jobs' executions together by JBeret's
 * start and end times, whichever node ran them: never more than 5 of a tenant's at once, never more than 8 in all, and
 * 8 reached (otherwise the limit did not bind and the run says nothing).
 */
class TwoNodesLimitFaultIT {

    private static final String A = "a";
    private static final String B = "b";
    private static final int JOBS_EACH = 200;
    private static final int TENANTS = 4;
    private static final String SLEEP_MS = "300-900";

    @Test
    void twoPoliciesOnOneLimitStayWithinItOnTwoNodesAndWhenOneDies() {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        Duration recoverLimit = Duration.ofSeconds(Long.getLong("fault.nodes.recover", 30));
        List<ServerSpec> specs = List.of(ServerSpec.named(B, 100).withNodeName("fault-node-b"),
                ServerSpec.named(A, 0).withNodeName("fault-node-a"));
        try (FaultRun run = FaultRun.start("m-two-nodes-limit",
                "two policies on one named limit (5 per tenant, 8 in all) admitted by two nodes; kill -9 of b, no restart",
                settings, specs, List.of(Workload.LIMIT_A, Workload.LIMIT_B))) {
            UUID a = run.bootId(A);
            UUID b = run.bootId(B);
            run.note("limit", FaultPolicies.LIMIT + ": " + FaultPolicies.LIMIT_PER_TENANT + " per tenant, " + FaultPolicies.LIMIT_IN_ALL
                    + " in all");
            run.submitStormThrough(Workload.LIMIT_A, JOBS_EACH, TENANTS, SLEEP_MS, A, B);
            run.submitStormThrough(Workload.LIMIT_B, JOBS_EACH, TENANTS, SLEEP_MS, B, A);

            AtomicReference<Map<UUID, NodeInflight>> atKill = new AtomicReference<>(Map.of());
            // A quarter of the first storm: the settings' fault.at is a share of their own job count (600), which
            // here is A's last few jobs, when B's storm may be over too and no node runs anything (seen once in CI).
            run.awaitFaultMoment(JOBS_EACH / 4, "both nodes running limited jobs", () -> {
                atKill.set(run.observations().inflightByNode());
                return atKill.get().getOrDefault(a, NodeInflight.NONE).running() && atKill.get().getOrDefault(b, NodeInflight.NONE).running();
            });
            Map<UUID, NodeInflight> seen = atKill.get();
            run.note("inflightByNodeAtKill", Map.of(A, String.valueOf(seen.get(a)), B, String.valueOf(seen.get(b))));
            run.checkAlso(() -> seen.getOrDefault(a, NodeInflight.NONE).running() && seen.getOrDefault(b, NodeInflight.NONE).running()
                    ? Optional.empty() : Optional.of("not both nodes were running limited jobs at the kill: " + seen));

            run.faultStarted("SIGKILL to b's JVM; a takes its rows and drains both storms; no restart");
            Instant killed = Instant.now();
            run.note("killedJvmPid", run.server(B).kill());
            run.faultEnded();
            Double recovered = run.secondsUntilNoInflightOf(b, killed, recoverLimit.plusSeconds(90));
            run.note("secondsForAToRecoverB", recovered);
            run.checkAlso(() -> recovered != null && recovered <= recoverLimit.toSeconds() ? Optional.empty()
                    : Optional.of("a did not take b's in-flight rows within " + recoverLimit.toSeconds() + " s: " + recovered));

            run.checkAlso(() -> {
                Instant now = Instant.now();
                List<Execution> both = new ArrayList<>(run.observations(Workload.LIMIT_A).executions());
                both.addAll(run.observations(Workload.LIMIT_B).executions());
                int inAll = Invariants.peakConcurrency(both, now);
                Map<String, Integer> byTenant = both.stream().collect(Collectors.groupingBy(Execution::tenant, TreeMap::new,
                        Collectors.collectingAndThen(Collectors.toList(), runs -> Invariants.peakConcurrency(runs, now))));
                run.note("peakInAllOverBothPolicies", inAll);
                run.note("peakPerTenantOverBothPolicies", byTenant);
                List<String> wrong = new ArrayList<>();
                if (inAll > FaultPolicies.LIMIT_IN_ALL) {
                    wrong.add(inAll + " executions of both policies at once, over the limit's " + FaultPolicies.LIMIT_IN_ALL + " in all");
                }
                if (inAll < FaultPolicies.LIMIT_IN_ALL) {
                    wrong.add("the limit's " + FaultPolicies.LIMIT_IN_ALL + " in all was never reached (peak " + inAll + "): it did not bind");
                }
                byTenant.forEach((tenant, peak) -> {
                    if (peak > FaultPolicies.LIMIT_PER_TENANT) {
                        wrong.add("tenant " + tenant + " ran " + peak + " at once over both policies, over the limit's "
                                + FaultPolicies.LIMIT_PER_TENANT);
                    }
                });
                if (byTenant.size() != TENANTS) {
                    wrong.add("executions of " + byTenant.size() + " tenants, not " + TENANTS);
                }
                return wrong.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", wrong));
            });

            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }
}
