package io.dispatchpolicy.faults;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (f) Two nodes, each under a {@code dispatch.node-name} of its own ({@code fault-node-a},
 * {@code fault-node-b}), share a storm submitted through both, under a policy whose capacity binds
 * ({@code fault-capped}: 20 tenants x concurrency 3 = 60 wanted, capacity 40, 30 batch threads per
 * node). Each node recovers the other's work when it dies:
 *
 * <ol>
 * <li>once a third is admitted and both nodes run jobs, {@code b}'s JVM is killed; {@code a} must take
 *     {@code b}'s in-flight rows within {@code fault.nodes.recover} seconds (ADR 0007);</li>
 * <li>{@code b} boots again on the same base directory (a new boot); once it runs jobs and {@code a}
 *     does too, {@code a}'s JVM is killed; the restarted {@code b} must take {@code a}'s rows within the
 *     same limit, and drain the rest alone.</li>
 * </ol>
 *
 * <p>Besides the storm's invariants, the policy's capacity is checked cluster-wide (never more than 40
 * of its executions running at once by JBeret's start and end times, whichever server ran them), and
 * must have been reached: otherwise the run did not test it.
 */
class TwoNodesFaultIT {

    private static final String A = "a";
    private static final String B = "b";
    /** More than the capacity: a node alone can fill it, both together could run more than it allows. */
    static final int BATCH_THREADS = 30;
    /** How long past the limit recovery is still timed, so a slow recovery is reported with its figure. */
    private static final Duration TIMED_BEYOND_LIMIT = Duration.ofSeconds(90);

    @Test
    void eachNodeTakesOverTheOthersJobsWhenItDiesAndTheCapacityHoldsClusterWide() {
        FaultSettings settings = FaultSettings.fromSystemProperties().withStormOf("fault.nodes", 10_000, "1000-4000");
        Duration recoverLimit = Duration.ofSeconds(Long.getLong("fault.nodes.recover", 30));
        Duration drain = Duration.ofSeconds(Long.getLong("fault.nodes.drain", settings.drain().toSeconds()));
        String threads = "-Ddispatch.batch.max-threads=" + BATCH_THREADS;
        List<ServerSpec> specs = List.of(
                ServerSpec.named(B, 100).withNodeName("fault-node-b").withProperties(threads),
                ServerSpec.named(A, 0).withNodeName("fault-node-a").withProperties(threads));
        try (FaultRun run = FaultRun.start("f-two-nodes",
                "two nodes with names of their own share a storm under a binding capacity; kill -9 of b, b restarted,"
                        + " then kill -9 of a: each takes over the other's jobs",
                settings, specs, List.of(Workload.CAPPED))) {
            UUID a = run.bootId(A);
            UUID b1 = run.bootId(B);
            Map<String, Object> boots = new LinkedHashMap<>();
            boots.put(A, a.toString());
            boots.put(B, b1.toString());
            run.note("bootIds", boots);
            run.note("batchThreadsPerNode", BATCH_THREADS);
            long aPid = run.server(A).jvmPid();

            run.submitStormThrough(Workload.CAPPED, settings.jobs(), settings.tenants(), settings.sleepMs(), A, B);

            // 1. b dies; a takes its rows.
            AtomicReference<Map<UUID, NodeInflight>> atKill1 = new AtomicReference<>(Map.of());
            run.awaitFaultMoment("both nodes running jobs", () -> bothRunning(run, atKill1, a, b1));
            run.note("inflightByNodeAtKill1", byServer(atKill1.get(), a, b1));
            Map<UUID, NodeInflight> atFirst = atKill1.get();
            run.checkAlso(() -> runningBoth(atFirst, a, b1) ? Optional.empty()
                    : Optional.of("not both nodes were running jobs at the first kill: " + atFirst));

            run.faultStarted("SIGKILL to b's JVM; a takes over; b restarted; SIGKILL to a's JVM; b takes over and drains");
            Instant killed1 = Instant.now();
            run.note("killedJvmPid1", run.server(B).kill());
            Double recovered1 = run.secondsUntilNoInflightOf(b1, killed1, recoverLimit.plus(TIMED_BEYOND_LIMIT));
            run.note("secondsForAToRecoverB", recovered1);
            run.note("recoverLimitSeconds", recoverLimit.toSeconds());
            run.checkAlso(() -> withinLimit(run, "a", "b's first boot", b1, recovered1, recoverLimit));
            // a has been up through all of it: the rows were not taken by a restart of a. (Read now: a is
            // killed before the checks run.)
            boolean aStayedUp = run.server(A).alive() && run.server(A).jvmPid() == aPid;
            run.checkAlso(() -> aStayedUp ? Optional.empty()
                    : Optional.of("a was not the same JVM when it took b's rows: JVM " + aPid + " is gone"));
            run.note("admittedWhenBRecovered", run.observations().executionCount());

            // 2. b again (same base directory, a new boot); once both run jobs, a dies; b takes its rows.
            Instant restart = Instant.now();
            run.bootServer(B);
            UUID b2 = run.bootId(B);
            run.note("bRestartSeconds", Duration.between(restart, Instant.now()).toMillis() / 1000.0);
            boots.put(B + " (restarted)", b2.toString());
            AtomicReference<Map<UUID, NodeInflight>> atKill2 = new AtomicReference<>(Map.of());
            await("f-two-nodes: the restarted b and a both running jobs").atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(200)).until(() -> bothRunning(run, atKill2, a, b2));
            run.note("inflightByNodeAtKill2", byServer(atKill2.get(), a, b2));
            run.note("admittedWhenAWasKilled", run.observations().executionCount());
            run.note("stagedWhenAWasKilled", run.observations().stagedCount());
            Map<UUID, NodeInflight> atSecond = atKill2.get();
            run.checkAlso(() -> runningBoth(atSecond, a, b2) ? Optional.empty()
                    : Optional.of("not both nodes were running jobs at the second kill: " + atSecond));

            Instant killed2 = Instant.now();
            run.note("killedJvmPid2", run.server(A).kill());
            run.faultEnded(); // nothing comes back: the drain is timed from the second kill
            long bPid = run.server(B).jvmPid();
            Double recovered2 = run.secondsUntilNoInflightOf(a, killed2, recoverLimit.plus(TIMED_BEYOND_LIMIT));
            run.note("secondsForRestartedBToRecoverA", recovered2);
            run.checkAlso(() -> withinLimit(run, "the restarted b", "a", a, recovered2, recoverLimit));
            run.checkAlso(() -> run.server(B).alive() && run.server(B).jvmPid() == bPid ? Optional.empty()
                    : Optional.of("the restarted b did not stay up: JVM " + bPid + " is gone"));
            // The capacity must have been reached, or the run says nothing about it.
            run.checkAlso(() -> {
                int peak = Invariants.peakConcurrency(run.observations().executions(), Instant.now());
                return peak >= Workload.CAPPED.capacity() ? Optional.empty()
                        : Optional.of("the policy's capacity of " + Workload.CAPPED.capacity() + " was never reached (peak "
                        + peak + "): it did not bind");
            });

            Verdict verdict = run.drainAndCheck(drain);
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    private static Optional<String> withinLimit(FaultRun run, String taker, String what, UUID dead, Double seconds,
                                                Duration limit) {
        if (seconds != null && seconds <= limit.toSeconds()) {
            return Optional.empty();
        }
        return Optional.of(taker + " did not take all in-flight rows of " + what + " within " + limit.toSeconds()
                + " s of its kill: " + (seconds == null ? "still " + run.observations().inflightCountOf(dead) + " rows after "
                + limit.plus(TIMED_BEYOND_LIMIT).toSeconds() + " s" : seconds + " s"));
    }

    private static boolean bothRunning(FaultRun run, AtomicReference<Map<UUID, NodeInflight>> seen, UUID one, UUID other) {
        seen.set(run.observations().inflightByNode());
        return runningBoth(seen.get(), one, other);
    }

    private static boolean runningBoth(Map<UUID, NodeInflight> byNode, UUID one, UUID other) {
        return byNode.getOrDefault(one, NodeInflight.NONE).running() && byNode.getOrDefault(other, NodeInflight.NONE).running();
    }

    private static Map<String, Object> byServer(Map<UUID, NodeInflight> byNode, UUID a, UUID b) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (Map.Entry<String, UUID> node : List.of(Map.entry(A, a), Map.entry(B, b))) {
            NodeInflight f = byNode.getOrDefault(node.getValue(), NodeInflight.NONE);
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("running", f.started());
            counts.put("admittedNotStarted", f.unstarted());
            map.put(node.getKey(), counts);
        }
        return map;
    }
}
