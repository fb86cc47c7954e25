package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (c) WildFly is stopped cleanly mid-storm (SIGTERM, as a service manager does) and started again: the
 * storm drains exactly once, including the jobs the shutdown stopped, and the stop logs no ERROR.
 */
class WildFlyStopFaultIT {

    @Test
    void stormDrainsExactlyOnceAfterACleanStopAndRestart() {
        try (FaultRun run = FaultRun.start("c-wildfly-stop", "clean stop of WildFly (SIGTERM) mid-storm, then restart on the same base dir")) {
            run.submitStorm();
            run.awaitFaultMoment();
            run.faultStarted("SIGTERM to standalone.sh (forwarded to WildFly's JVM)");
            Instant stopping = Instant.now();
            long logFrom = run.server().log().mark();
            run.server().stop(Duration.ofMinutes(2));
            List<String> errors = run.server().log().linesBetween(logFrom, run.server().log().mark()).stream()
                    .filter(line -> line.contains(" ERROR ")).toList();
            run.checkAlso(() -> errors.isEmpty() ? Optional.empty()
                    : Optional.of("a clean stop logged " + errors.size() + " ERROR line(s), first: " + errors.get(0)));
            run.note("stopSeconds", Duration.between(stopping, Instant.now()).toMillis() / 1000.0);
            run.note("executionsStoppedByShutdown", run.observations().executions().stream()
                    .filter(e -> "STOPPED".equals(e.status())).count());
            run.bootServer();
            run.faultEnded();
            Verdict verdict = run.drainAndCheck(run.settings().drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }
}
