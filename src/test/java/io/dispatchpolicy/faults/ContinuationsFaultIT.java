package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.check.Observations;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * (n) Continuations and groups across a kill -9 while their predecessors' ends are being written (issue 39; ADR 0051,
 * 0052): 100 jobs {@code fault-cont-a} (30 of them fail, each retried once) are submitted through two nodes as two
 * groups of 50 (callback on all ended: a {@code fault-cont-b} of tenant {@code group-…}), each job continued by
 * {@code fault-cont-b} on success and {@code fault-cont-c} on failure. The test holds the followers' rows locked, so
 * every A that ends waits inside the transaction that records its end — JBeret's end written, the slot's release
 * and the followers' decision not committed; once {@code b} has such ends of both kinds pending, its JVM is killed and
 * the lock let go. Those transactions die with it; {@code a} takes {@code b}'s rows and settles their ends itself.
 *
 * <p>Checked: exactly 70 B and 30 C submissions, one per A by the A's last end (one follower staged and one skipped
 * per A), each of them completed exactly once (a run the kill interrupted runs again), none before its A's last
 * execution ended, B never more than {@value FaultPolicies#CONT_B_PER_TENANT} of a tenant at once and C one at a time;
 * each group counted 35 completed and 15 failed and staged its callback once, which completed once.
 */
class ContinuationsFaultIT {

    private static final String A = "a";
    private static final String B = "b";
    private static final int JOBS = 100;

    private static final String BLOCKED_ENDS = "SELECT e.batchstatus, count(*) FROM dispatch.inflight_jobs i "
            + "JOIN job_execution e ON e.jobexecutionid = i.execution_id WHERE i.node_id = ? AND e.batchstatus IN ('COMPLETED', 'FAILED') "
            + "GROUP BY e.batchstatus";

    @Test
    void aKilledNodesEndsInTheMiddleOfBeingWrittenAreEachFollowedOnceByTheNodeThatTakesItsRows() throws Exception {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        List<ServerSpec> specs = List.of(ServerSpec.named(B, 100).withNodeName("fault-node-b"),
                ServerSpec.named(A, 0).withNodeName("fault-node-a"));
        try (FaultRun run = FaultRun.start("n-continuations",
                "100 A's (30 failing) continued by B on success and C on failure, through two nodes; kill -9 of b while ends of its "
                        + "A's are being written (their transactions held on the followers' rows); no restart",
                settings, specs)) {
            UUID b = run.bootId(B);
            long[] ids;
            long[] pending;
            long[] groups;
            try (Connection hold = run.database().connect()) {
                groups = new long[] {submit(run.server(A).baseUri(), 0, JOBS / 2), submit(run.server(B).baseUri(), JOBS / 2, JOBS / 2)};
                List<Long> submitted = Observations.query(run.database()::connect, "SELECT after_submission FROM dispatch.followers "
                        + "WHERE group_id = ANY(?) AND kind = 'group' ORDER BY after_submission", rs -> rs.getLong(1), groups);
                ids = submitted.stream().mapToLong(Long::longValue).toArray();
                assertThat(ids).hasSize(JOBS);
                hold.setAutoCommit(false);
                try (PreparedStatement lock = hold.prepareStatement(
                        "SELECT count(*) FROM (SELECT id FROM dispatch.followers WHERE after_submission = ANY(?) FOR UPDATE) f")) {
                    lock.setArray(1, hold.createArrayOf("bigint", submitted.toArray(new Long[0])));
                    try (ResultSet rs = lock.executeQuery()) {
                        rs.next();
                        assertThat(rs.getLong(1)).as("two continuations and a group member per A").isEqualTo(3L * JOBS);
                    }
                }
                pending = await("ends of b's A's of both kinds waiting on the followers' lock").atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(200)).until(() -> blockedEnds(run, b), p -> p[0] >= 2 && p[1] >= 1);
                run.note("endsPendingOnBAtKill", "COMPLETED " + pending[0] + ", FAILED " + pending[1]);
                run.faultStarted("SIGKILL to b while " + (pending[0] + pending[1]) + " ends of its A's are being written; no restart");
                run.note("killedJvmPid", run.server(B).kill());
                hold.rollback();
            }
            Instant killed = Instant.now();
            run.faultEnded();
            Double recovered = run.secondsUntilNoInflightOf(b, killed, Duration.ofMinutes(2));
            run.note("secondsForAToTakeBsRows", recovered);
            assertThat(recovered).as("a took b's rows").isNotNull();

            await("every A's followers decided and their jobs ended").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                    .until(() -> count(run, "SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?) AND state = 'waiting'", ids) == 0
                            && count(run, "SELECT count(*) FROM dispatch.job_groups WHERE id = ANY(?) AND ended_at IS NULL", groups) == 0
                            && count(run, "SELECT count(*) FROM dispatch.staged_jobs WHERE job_name IN ('fault-cont-a', 'fault-cont-b', 'fault-cont-c')") == 0
                            && count(run, "SELECT count(*) FROM dispatch.inflight_jobs") == 0);

            assertThat(count(run, "SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?) AND state = 'staged'", ids))
                    .as("one follower staged per A").isEqualTo(JOBS);
            assertThat(count(run, "SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?) AND state = 'skipped'", ids))
                    .as("the other skipped").isEqualTo(JOBS);
            // each group counted each member once, at its last end, and staged its callback once
            List<String> counted = Observations.query(run.database()::connect, "SELECT concat_ws(' ', total, completed, failed, stopped, discarded, "
                    + "(SELECT count(*) FROM dispatch.followers f WHERE f.group_id = g.id AND f.kind = 'callback' AND f.state = 'staged')) "
                    + "FROM dispatch.job_groups g WHERE id = ANY(?) ORDER BY id", rs -> rs.getString(1), groups);
            run.note("groups", counted);
            assertThat(counted).containsExactly("50 35 15 0 0 1", "50 35 15 0 0 1");
            assertThat(count(run, "SELECT count(*) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                    + "WHERE i.jobname = 'fault-cont-b' AND e.batchstatus = 'COMPLETED' AND e.jobparameters LIKE '%tenant = group-%'"))
                    .as("each group's callback completed once").isEqualTo(2);
            // which one was staged is the A's last end: B after a last execution COMPLETED, C after one FAILED
            assertThat(count(run, "SELECT count(*) FROM dispatch.followers f JOIN dispatch.admissions a ON a.submission_id = f.after_submission "
                    + "JOIN job_execution e ON e.jobexecutionid = a.execution_id WHERE f.after_submission = ANY(?) AND f.state = 'staged' "
                    + "AND (f.job_name = 'fault-cont-b') <> (e.batchstatus = 'COMPLETED')", ids)).as("followers of the wrong end").isZero();
            long bs = count(run, "SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?) AND job_name = 'fault-cont-b' "
                    + "AND state = 'staged'", ids);
            long cs = count(run, "SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?) AND job_name = 'fault-cont-c' "
                    + "AND state = 'staged'", ids);
            run.note("continuations", "B " + bs + ", C " + cs);
            assertThat(bs).isEqualTo(70);
            assertThat(cs).isEqualTo(30);
            // each continuation's submission completed exactly once, after its A's last execution ended
            List<String> wrong = Observations.query(run.database()::connect,
                    "SELECT concat_ws(' ', f.submission_id, count(*) FILTER (WHERE e.batchstatus = 'COMPLETED'), "
                            + "bool_and(e.starttime >= ae.endtime)) FROM dispatch.followers f "
                            + "JOIN dispatch.admissions pa ON pa.submission_id = f.after_submission JOIN job_execution ae ON ae.jobexecutionid = pa.execution_id "
                            + "JOIN dispatch.admissions fa ON fa.submission_id = f.submission_id "
                            + "JOIN job_execution fe ON fe.jobexecutionid = fa.execution_id "
                            + "JOIN job_execution e ON e.jobinstanceid = fe.jobinstanceid "
                            + "WHERE f.after_submission = ANY(?) AND f.state = 'staged' GROUP BY f.submission_id "
                            + "HAVING count(*) FILTER (WHERE e.batchstatus = 'COMPLETED') <> 1 OR NOT bool_and(e.starttime >= ae.endtime)",
                    rs -> rs.getString(1), ids);
            assertThat(wrong).as("continuations not completed exactly once after their A's last end (submission, completed, after)").isEmpty();
            long bPeak = peak(run, "fault-cont-b", true);
            long cPeak = peak(run, "fault-cont-c", false);
            run.note("peaks", "B per tenant " + bPeak + ", C in all " + cPeak);
            assertThat(bPeak).isBetween(1L, (long) FaultPolicies.CONT_B_PER_TENANT);
            assertThat(cPeak).isEqualTo(1);
            run.note("passed", true);
            System.out.println("n-continuations: ends pending on b at the kill " + pending[0] + " COMPLETED, " + pending[1] + " FAILED; a took b's rows in "
                    + recovered + " s; B " + bs + ", C " + cs + "; peaks B per tenant " + bPeak + ", C " + cPeak + "; groups " + counted);
        }
    }

    private static long submit(URI war, int first, int count) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(war.resolve("submit-continued?count=" + count + "&first=" + first + "&tenants=4&sleepMs=300-900"))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Long.parseLong(response.body().strip());
    }

    /** b's in-flight rows whose execution JBeret already records as ended: [COMPLETED, FAILED]. */
    private static long[] blockedEnds(FaultRun run, UUID node) {
        long[] counts = new long[2];
        Observations.query(run.database()::connect, BLOCKED_ENDS, rs -> {
            counts["COMPLETED".equals(rs.getString(1)) ? 0 : 1] = rs.getLong(2);
            return null;
        }, node);
        return counts;
    }

    private static long count(FaultRun run, String sql, Object... args) {
        return Observations.query(run.database()::connect, sql, rs -> rs.getLong(1), args).get(0);
    }

    /** The most executions of a job that ran at one instant (per tenant, or in all), by JBeret's times. */
    private static long peak(FaultRun run, String job, boolean perTenant) {
        record Run(String tenant, long start, long end) {
        }
        List<Run> runs = Observations.query(run.database()::connect, "SELECT e.jobparameters, (extract(epoch FROM e.starttime) * 1000)::bigint, "
                + "(extract(epoch FROM e.endtime) * 1000)::bigint FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ? AND e.starttime IS NOT NULL AND e.endtime IS NOT NULL",
                rs -> new Run(perTenant ? tenant(rs.getString(1)) : "", rs.getLong(2), rs.getLong(3)), job);
        long peak = 0;
        for (Run r : runs) {
            peak = Math.max(peak, runs.stream().filter(o -> o.tenant().equals(r.tenant()) && o.start() <= r.start() && r.start() < o.end()).count());
        }
        return peak;
    }

    private static String tenant(String parameters) {
        for (String line : parameters.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).strip().equals("tenant")) {
                return line.substring(eq + 1).strip();
            }
        }
        throw new IllegalStateException("no tenant parameter in " + parameters);
    }
}
