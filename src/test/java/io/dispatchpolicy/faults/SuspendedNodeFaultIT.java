package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (i) Two nodes share a storm of jobs of a second; node {@code a} is suspended with jboss-cli
 * ({@code :suspend(suspend-timeout=30)}) for 10 s and resumed: while suspended, {@code a} admits nothing
 * and {@code b} keeps admitting; after {@code :resume}, {@code a} admits again, and the storm drains
 * exactly once within its caps (ADR 0021).
 *
 * <p>Disabled until the defect it found is fixed: its run of 2026-11-26 admitted nothing on {@code a} for
 * the 10 s (97 on {@code b}) and drained 400 submissions once each, but WildFly's own batch suspend on
 * {@code a} — after the engine's — found {@code b}'s queued executions STARTING in the shared JDBC job
 * repository (JBeret's {@code getRunningExecutions} is cluster-wide) and stopped them, 9 ended STOPPED,
 * and on {@code :resume} WildFly's {@code restart-jobs-on-resume} tried to restart them, logging
 * WFLYBATCH000016 ERRORs. The check that {@code a} admits again after the resume failed too (b had
 * drained the rest by then: the check needs a longer storm).
 */
@Disabled("Known defect, issue 33 (ADR 0021, Consequences): WildFly's batch suspend on a stops b's queued executions "
        + "through the shared job repository, and restart-jobs-on-resume logs WFLYBATCH000016 ERRORs restarting them")
class SuspendedNodeFaultIT {

    private static final String A = "a";
    private static final String B = "b";
    private static final int JOBS = 400;

    @Test
    void aSuspendedNodeAdmitsNothingWhileTheOtherKeepsAdmittingAndItAdmitsAgainOnResume() throws SQLException {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        List<ServerSpec> specs = List.of(ServerSpec.named(B, 100).withNodeName("fault-node-b"),
                ServerSpec.named(A, 0).withNodeName("fault-node-a"));
        try (FaultRun run = FaultRun.start("i-suspended-node", "two nodes share a storm; :suspend of a for 10 s, then :resume",
                settings, specs)) {
            UUID a = run.bootId(A);
            UUID b = run.bootId(B);
            Instant begin = Instant.now();
            run.submitStormThrough(Workload.STORM, JOBS, settings.tenants(), "1000", A, B);
            await("i-suspended-node: both nodes admitting").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> admittedBy(run, a, begin) > 0 && admittedBy(run, b, begin) > 0);

            run.faultStarted(":suspend(suspend-timeout=30) of a for 10 s, then :resume");
            run.server(A).cli(":suspend(suspend-timeout=30)", Duration.ofMinutes(1));
            Instant suspended = Instant.now();
            await("i-suspended-node: a admits nothing for 10 s").during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15))
                    .until(() -> admittedBy(run, a, suspended) == 0);
            long byB = admittedBy(run, b, suspended);
            run.note("admittedByAWhileSuspended", admittedBy(run, a, suspended));
            run.note("admittedByBWhileASuspended", byB);
            run.checkAlso(() -> byB > 0 ? Optional.empty() : Optional.of("b admitted nothing while a was suspended"));

            run.server(A).cli(":resume", Duration.ofMinutes(1));
            Instant resumed = Instant.now();
            run.faultEnded();
            await("i-suspended-node: a admits again after :resume").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> admittedBy(run, a, resumed) > 0 || run.observations().stagedCount() == 0);
            long byA = admittedBy(run, a, resumed);
            run.note("admittedByAAfterResume", byA);
            run.checkAlso(() -> byA > 0 ? Optional.empty() : Optional.of("a admitted nothing after :resume"));

            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /** Admissions (first runs and restarts) made by {@code node} since {@code since}, by the database's clock. */
    private static long admittedBy(FaultRun run, UUID node, Instant since) throws SQLException {
        try (Connection c = run.database().connect(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM dispatch.admissions WHERE node_id = ? AND admitted_at > ?")) {
            s.setObject(1, node);
            s.setTimestamp(2, Timestamp.from(since));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
