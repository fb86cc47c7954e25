package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.Workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import static org.awaitility.Awaitility.await;

/**
 * Scenario (i), the second part of (g)'s run on its two sharded nodes ({@code a} admits the even tenants,
 * {@code b} the odd, so each node has work only it admits: otherwise b, alone while a is suspended, could drain
 * what a would admit after its resume, and a's admissions would prove nothing). A storm of jobs of a second goes
 * in beside what is left of (g)'s; node {@code a} is suspended with jboss-cli ({@code :suspend(suspend-timeout=30)})
 * for 10 s and resumed: while suspended, {@code a} admits nothing and {@code b} keeps admitting; after
 * {@code :resume}, {@code a} admits again, and everything drains exactly once within its caps (ADR 0021).
 *
 * <p>WildFly's own batch suspend on {@code a} stops every running execution of the deployment's jobs it finds
 * in the shared JDBC job repository, {@code b}'s too (JBeret's stop reaches another node through the
 * repository): {@code b} takes such a STOPPED end, which no operator asked for, for an interruption and runs
 * the job again through its policy; WildFly's {@code restart-jobs-on-resume} is off (dispatch.cli), so
 * nothing is restarted behind the engine's back (ADR 0021).
 */
final class SuspendedNode {

    private static final int JOBS = 400;
    private static final int TENANTS = 10;

    private SuspendedNode() {
    }

    /** Runs it; the run's fault is the suspend. */
    static void suspendOfAHoldsItsAdmissionsWhileBKeepsAdmitting(FaultRun run, String aName, String bName) throws SQLException {
        UUID a = run.bootId(aName);
        UUID b = run.bootId(bName);
        Instant begin = Instant.now();
        run.submitStormThrough(Workload.SHARDED, JOBS, TENANTS, "1000", aName, bName);
        await("i: both nodes admitting").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> admittedBy(run, a, begin) > 0 && admittedBy(run, b, begin) > 0);

        run.faultStarted(":suspend(suspend-timeout=30) of a for 10 s, then :resume");
        run.server(aName).cli(":suspend(suspend-timeout=30)", Duration.ofMinutes(1));
        Instant suspended = Instant.now();
        await("i: a admits nothing for 10 s").during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15))
                .until(() -> admittedBy(run, a, suspended) == 0);
        long byB = admittedBy(run, b, suspended);
        run.note("admittedByAWhileSuspended", admittedBy(run, a, suspended));
        run.note("admittedByBWhileASuspended", byB);
        run.checkAlso(() -> byB > 0 ? Optional.empty() : Optional.of("b admitted nothing while a was suspended"));

        run.server(aName).cli(":resume", Duration.ofMinutes(1));
        Instant resumed = Instant.now();
        run.faultEnded();
        await("i: a admits again after :resume").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> admittedBy(run, a, resumed) > 0 || run.observations().stagedCount() == 0);
        long byA = admittedBy(run, a, resumed);
        run.note("admittedByAAfterResume", byA);
        run.checkAlso(() -> byA > 0 ? Optional.empty() : Optional.of("a admitted nothing after :resume"));
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
