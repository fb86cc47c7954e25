package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** (a) WildFly's JVM dies mid-storm (kill -9) and is started again: the storm drains exactly once. */
class WildFlyKillFaultIT {

    @Test
    void stormDrainsExactlyOnceAfterWildFlyIsKilledAndRestarted() {
        try (FaultRun run = FaultRun.start("a-wildfly-kill", "kill -9 of WildFly's JVM mid-storm, then restart on the same base dir")) {
            run.submitStorm();
            run.awaitFaultMoment();
            run.faultStarted("SIGKILL to WildFly's JVM");
            run.note("killedJvmPid", run.server().kill()); // returns once that JVM is verifiably gone
            run.bootServer();
            run.faultEnded();
            Verdict verdict = run.drainAndCheck(run.settings().drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }
}
