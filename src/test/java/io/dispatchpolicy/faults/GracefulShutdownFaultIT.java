package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (h) WildFly stopped three ways mid-storm with jobs of a second running, as an operator does it with
 * jboss-cli: {@code :shutdown(suspend-timeout=30)} (the engine holds admissions and lets its jobs finish
 * first), {@code :reload} and a {@code :shutdown} without a suspend timeout (the services stop at once:
 * the engine keeps WildFly's job repository up until its jobs have ended; ADR 0021). None logs an ERROR,
 * and after each the storm goes on; it drains exactly once through the policy.
 */
class GracefulShutdownFaultIT {

    /** Enough for jobs to run at each of the three stops (a few seconds of running between them). */
    private static final int JOBS = 300;
    private static final Duration STOP = Duration.ofMinutes(2);

    @Test
    void everyWayOfStoppingTheServerLogsNoErrorAndTheStormDrainsOnce() {
        try (FaultRun run = FaultRun.start("h-graceful-shutdown", "jboss-cli :shutdown(suspend-timeout=30), :reload and "
                + ":shutdown mid-storm with jobs of a second running")) {
            run.submitStorm(JOBS, "1000");
            run.faultStarted(":shutdown(suspend-timeout=30), :reload, :shutdown");
            run.awaitRunning(5);
            stop(run, "gracefulShutdown", () -> run.server().shutdownWith(":shutdown(suspend-timeout=30)", STOP));
            run.bootServer();
            run.awaitRunning(5);
            stop(run, "reload", () -> run.server().reload(STOP));
            run.awaitRunning(5);
            stop(run, "shutdown", () -> run.server().shutdownWith(":shutdown", STOP));
            run.bootServer();
            run.faultEnded();
            Verdict verdict = run.drainAndCheck(run.settings().drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    private static void stop(FaultRun run, String key, Runnable operation) {
        FaultServer server = run.server();
        long logFrom = server.log().mark();
        long started = System.nanoTime();
        operation.run();
        List<String> errors = server.log().linesBetween(logFrom, server.log().mark()).stream()
                .filter(line -> line.contains(" ERROR ") || line.contains(" SEVERE ")).toList();
        run.checkAlso(() -> errors.isEmpty() ? Optional.empty()
                : Optional.of(key + " logged " + errors.size() + " ERROR line(s), first: " + errors.get(0)));
        run.note(key + "Seconds", Math.round((System.nanoTime() - started) / 1e8) / 10.0);
        run.note(key + "ErrorLines", errors.size());
    }
}
