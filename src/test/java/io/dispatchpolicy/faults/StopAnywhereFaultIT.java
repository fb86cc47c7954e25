package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (k) No fault: two nodes share a storm of jobs of 8 s; an operator, through node {@code a}'s API, stops one
 * job that node {@code b} runs and one that {@code a} runs (issue 35 deliverable 6, ADR 0031). Each must end
 * STOPPED within the watchdog's second plus the job's own stop time (the storm's batchlet stops at once: 3 s
 * is the limit, for a loaded machine), delivered by the node that runs it, and never run again; every other
 * job completes exactly once.
 */
class StopAnywhereFaultIT {

    private static final Duration LIMIT = Duration.ofSeconds(3);

    @Test
    void anOperatorOnOneNodeStopsAJobTheOtherNodeRuns() {
        FaultSettings settings = FaultSettings.fromSystemProperties().withStormOf("fault.stop", 40, "8000");
        List<ServerSpec> specs = List.of(ServerSpec.named("b", 100).withNodeName("fault-node-b"),
                ServerSpec.named("a", 0).withNodeName("fault-node-a"));
        try (FaultRun run = FaultRun.start("k-stop-from-any-node", "an operator on a stops a job b runs, and one a runs",
                settings, specs, List.of(Workload.STORM))) {
            UUID a = run.bootId("a");
            UUID b = run.bootId("b");
            run.submitStormThrough(Workload.STORM, settings.jobs(), settings.tenants(), settings.sleepMs(), "a", "b");
            long[][] picked = new long[2][];
            await("k: both nodes running jobs").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> (picked[0] = runningOn(run, b)) != null && (picked[1] = runningOn(run, a)) != null);

            run.faultStarted("POST /dispatch/api/jobs/{id}/stop on a: a job of b, then a job of a");
            List<String> problems = new ArrayList<>();
            for (long[] job : picked) {
                String on = job == picked[0] ? "b" : "a";
                Instant asked = Instant.now();
                Map.Entry<Integer, String> answer = run.server("a").postAsOperator("jobs/" + job[0] + "/stop");
                run.stoppedByOperator(job[0]);
                Double seconds = secondsUntilStopped(run, job[1], asked, LIMIT.plusSeconds(30));
                run.note("stopOfAJobOf_" + on, Map.of("submission", job[0], "execution", job[1], "http", answer.getKey(),
                        "answer", answer.getValue(), "secondsToStopped", seconds == null ? "never" : seconds));
                if (answer.getKey() != 200 || !answer.getValue().contains("to stop")) {
                    problems.add("the stop of " + on + "'s job answered " + answer);
                }
                if (on.equals("b") && !answer.getValue().contains("runs on node fault-node-b")) {
                    problems.add("the answer does not name the node that runs it: " + answer.getValue());
                }
                if (seconds == null || seconds > LIMIT.toMillis() / 1000.0) {
                    problems.add("the job " + on + " ran (execution " + job[1] + ") was STOPPED after " + seconds + " s, limit "
                            + LIMIT.toSeconds() + " s");
                }
            }
            run.faultEnded();
            run.checkAlso(() -> problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems)));

            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /** A job that has started on {@code node}: its submission and execution; null while there is none. */
    private static long[] runningOn(FaultRun run, UUID node) {
        try (Connection c = run.database().connect();
             PreparedStatement st = c.prepareStatement("SELECT a.submission_id, i.execution_id FROM dispatch.inflight_jobs i "
                     + "JOIN dispatch.admissions a ON a.execution_id = i.execution_id JOIN job_execution e ON e.jobexecutionid = i.execution_id "
                     + "WHERE i.node_id = ? AND i.started_at IS NOT NULL AND e.batchstatus = 'STARTED' ORDER BY i.started_at DESC LIMIT 1")) {
            st.setObject(1, node);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
            }
        } catch (SQLException e) {
            return null;
        }
    }

    /** Seconds from {@code asked} until JBeret records the execution STOPPED; null if not within {@code within}. */
    private static Double secondsUntilStopped(FaultRun run, long execution, Instant asked, Duration within) {
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
                try (Connection c = run.database().connect();
                     PreparedStatement st = c.prepareStatement("SELECT batchstatus FROM job_execution WHERE jobexecutionid = ?")) {
                    st.setLong(1, execution);
                    try (ResultSet rs = st.executeQuery()) {
                        return rs.next() && "STOPPED".equals(rs.getString(1));
                    }
                }
            });
            return Duration.between(asked, Instant.now()).toMillis() / 1000.0;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return null;
        }
    }
}
