package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.NodeInflight;
import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerLog;
import io.dispatchpolicy.faults.harness.ServerSpec;
import org.awaitility.core.ConditionTimeoutException;
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
 * (d) Two servers run under one node name (the mistake of issue "a node name shared by two servers runs
 * jobs twice"), both admitting and running the storm; one is killed (kill -9) and not restarted. The
 * survivor must take the killed server's in-flight rows within {@code fault.two.recover} seconds
 * (ADR 0007: the killed boot's advisory lock went with its session, and its heartbeat ages past two
 * intervals), drain the storm alone, and nothing may run twice or over the cap.
 *
 * <p>The victim boots first, so the survivor is the second boot under the name: it is the one that
 * finds a live namesake at boot and logs the WARNING about it, and it still takes that namesake's work
 * once it is gone.
 *
 * <p>Its storm is its own ({@code fault.two.jobs}, {@code fault.two.sleepMs}; 800 jobs of 1–3 s by
 * default): jobs long enough that both servers hold running jobs at the kill.
 */
class TwoServersFaultIT {

    private static final String SURVIVOR = "a";
    private static final String VICTIM = "b";
    private static final String NAMESAKE_WARNING = "Another live server uses the node name '" + ServerSpec.nodeName() + "'";
    /** How long past the limit recovery is still timed, so a slow recovery is reported with its figure. */
    private static final Duration TIMED_BEYOND_LIMIT = Duration.ofSeconds(90);

    @Test
    void survivorTakesOverItsKilledNamesakesJobsAndTheStormDrainsExactlyOnce() {
        FaultSettings settings = FaultSettings.fromSystemProperties().withStormOf("fault.two", 800, "1000-3000");
        Duration recoverLimit = Duration.ofSeconds(Long.getLong("fault.two.recover", 30));
        try (FaultRun run = FaultRun.start("d-two-servers",
                "two servers under one node name share the storm; kill -9 of one, no restart; the other drains it",
                settings, List.of(ServerSpec.named(VICTIM, 100), ServerSpec.named(SURVIVOR, 0)))) {
            UUID survivor = run.bootId(SURVIVOR);
            UUID victim = run.bootId(VICTIM);
            run.note("bootIds", ordered(SURVIVOR, survivor.toString(), VICTIM, victim.toString()));
            long survivorPid = run.server(SURVIVOR).jvmPid();

            run.submitStorm(SURVIVOR);
            // Both servers' ticks admit from the shared tables; strike once both are running jobs.
            AtomicReference<Map<UUID, NodeInflight>> atKill = new AtomicReference<>(Map.of());
            run.awaitFaultMoment("both servers running jobs", () -> {
                atKill.set(run.observations().inflightByNode());
                return inflight(atKill.get(), survivor).running() && inflight(atKill.get(), victim).running();
            });
            run.note("inflightByServerAtKill", byServer(atKill.get(), survivor, victim));
            // The await ends only when both ran jobs; this puts the evidence into the verdict as well.
            run.checkAlso(() -> inflight(atKill.get(), survivor).running() && inflight(atKill.get(), victim).running()
                    ? Optional.empty() : Optional.of("not both servers were running jobs at the kill: " + atKill.get()));

            run.faultStarted("SIGKILL to WildFly " + VICTIM + "'s JVM; " + SURVIVOR + " keeps running; no restart");
            Instant killed = Instant.now();
            run.note("killedJvmPid", run.server(VICTIM).kill()); // returns once that JVM is verifiably gone
            run.faultEnded(); // nothing comes back: the drain is timed from the kill

            Double recovered = secondsUntilNoRowOf(run, victim, killed, recoverLimit.plus(TIMED_BEYOND_LIMIT));
            run.note("secondsToRecoverKilledServer", recovered);
            run.note("recoverLimitSeconds", recoverLimit.toSeconds());
            run.checkAlso(() -> recovered != null && recovered <= recoverLimit.toSeconds() ? Optional.empty()
                    : Optional.of("the killed server's in-flight rows were not all taken within " + recoverLimit.toSeconds()
                    + " s of the kill: " + (recovered == null ? "still " + run.observations().inflightCountOf(victim)
                    + " rows after " + recoverLimit.plus(TIMED_BEYOND_LIMIT).toSeconds() + " s" : recovered + " s")));

            run.checkAlso(() -> run.server(SURVIVOR).alive() && run.server(SURVIVOR).jvmPid() == survivorPid
                    ? Optional.empty() : Optional.of("the survivor did not stay up: JVM " + survivorPid + " is gone"));
            run.checkAlso(() -> namesakeWarning(run.server(SURVIVOR).log(), victim).isPresent() ? Optional.empty()
                    : Optional.of("the survivor's server.log has no WARNING '" + NAMESAKE_WARNING + "' naming " + victim));
            run.note("survivorsNamesakeWarning", namesakeWarning(run.server(SURVIVOR).log(), victim).orElse(null));

            Verdict verdict = run.drainAndCheck(run.settings().drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /**
     * Seconds from the kill until no in-flight row is owned by the killed boot any more (the survivor
     * adopted the never-started ones and released the started ones), polled every 250 ms; null when
     * some are still there after {@code timedFor}.
     */
    private static Double secondsUntilNoRowOf(FaultRun run, UUID victim, Instant killed, Duration timedFor) {
        try {
            await("no in-flight row of the killed boot " + victim).atMost(timedFor).pollInterval(Duration.ofMillis(250))
                    .until(() -> run.observations().inflightCountOf(victim) == 0);
        } catch (ConditionTimeoutException stillThere) {
            return null;
        }
        return Duration.between(killed, Instant.now()).toMillis() / 1000.0;
    }

    /** The survivor's boot-time WARNING about a live namesake, when it names the victim's boot. */
    private static Optional<String> namesakeWarning(ServerLog log, UUID victim) {
        return log.linesBetween(0, log.mark()).stream()
                .filter(line -> line.contains("WARN") && line.contains(NAMESAKE_WARNING) && line.contains(victim.toString()))
                .findFirst();
    }

    private static NodeInflight inflight(Map<UUID, NodeInflight> byNode, UUID node) {
        return byNode.getOrDefault(node, NodeInflight.NONE);
    }

    private static Map<String, Object> byServer(Map<UUID, NodeInflight> byNode, UUID survivor, UUID victim) {
        NodeInflight a = inflight(byNode, survivor);
        NodeInflight b = inflight(byNode, victim);
        return ordered(SURVIVOR, ordered("running", a.started(), "admittedNotStarted", a.unstarted()),
                VICTIM, ordered("running", b.started(), "admittedNotStarted", b.unstarted()));
    }

    /** Two entries in this order, for the report. */
    private static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }
}
