package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.app.FaultPolicies;
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
 * (k) No fault: control of running jobs across two nodes (issue 35). Two nodes share a storm of jobs of 8 s; an
 * operator, through node {@code a}'s API, stops one job that node {@code b} runs and one that {@code a} runs
 * (deliverable 6, ADR 0031). Each must end STOPPED within the watchdog's second plus the job's own stop time (the
 * storm's batchlet stops at once: 3 s is the limit, for a loaded machine), delivered by the node that runs it, and
 * never run again; every other job completes exactly once. Then, on the same two nodes:
 * <ul>
 * <li>a job pauses its own partition for 10 s (deliverable 3, ADR 0033): none of that tenant's jobs, submitted
 *     through both nodes meanwhile, is admitted by either node before the pause ends, and all are after it; another
 *     tenant's jobs are admitted during it;</li>
 * <li>three chunk jobs of one tenant, run on both nodes, draw from its item bucket (deliverable 4, ADR 0034): 300
 *     items at 20 a second, a bucket of 20 — in every window of their reads (timed by the database's clock), at
 *     most 20 a second times its length plus one bucket, within 5 %;</li>
 * <li>one uniqueness key submitted 1,000 times by 4 threads on each node at once: one job staged;</li>
 * <li>scenario (l), {@link UngovernedKill}: {@code kill -9} of {@code b} while both run jobs no policy governs;
 *     {@code a} marks and restarts b's, and leaves its own.</li>
 * </ul>
 */
class StopAnywhereFaultIT {

    private static final Duration LIMIT = Duration.ofSeconds(3);

    @Test
    void anOperatorOnOneNodeStopsAJobTheOtherNodeRuns() {
        FaultSettings settings = FaultSettings.fromSystemProperties().withStormOf("fault.stop", 40, "8000");
        // (l) kills b at the end: both nodes recover a gone node's ungoverned executions
        List<ServerSpec> specs = List.of(ServerSpec.named("b", 100).withNodeName("fault-node-b").withProperties(UngovernedKill.RECOVER),
                ServerSpec.named("a", 0).withNodeName("fault-node-a").withProperties(UngovernedKill.RECOVER));
        try (FaultRun run = FaultRun.start("k-stop-from-any-node", "an operator on a stops a job b runs, and one a runs; then a job's pause of its partition and a tenant's item"
                        + " bucket, each held on both nodes; a key submitted 1,000 times on both; (l) kill -9 of b while both run"
                        + " ungoverned jobs, a repairs b's",
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
            List<String> paused = pauseHoldsOnBothNodes(run);
            run.checkAlso(() -> paused.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", paused)));
            List<String> items = itemRateHoldsAcrossNodes(run);
            run.checkAlso(() -> items.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", items)));
            List<String> unique = oneJobForAKeySubmittedOnBothNodes(run);
            run.checkAlso(() -> unique.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", unique)));
            // last, as it kills b: scenario (l) on the same two servers
            List<String> ungoverned = UngovernedKill.survivorRepairsTheDeadNodesExecutions(run);
            run.checkAlso(() -> ungoverned.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", ungoverned)));

            Verdict verdict = run.drainAndCheck(settings.drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    private static final int PAUSE_SECONDS = 10;

    /**
     * A job of tenant {@code p} pauses its partition for 10 s; 8 more of {@code p} and 8 of {@code q} are then
     * submitted, half through each node. @return what went wrong (nothing: empty)
     */
    private static List<String> pauseHoldsOnBothNodes(FaultRun run) {
        List<String> problems = new ArrayList<>();
        String job = "submit-job?job=" + FaultPolicies.PAUSE_JOB + "&count=4&param=sleepMs%3D100&tenant=";
        run.server("a").postToFault("submit-job?job=" + FaultPolicies.PAUSE_JOB + "&tenant=p&param=pauseSeconds%3D" + PAUSE_SECONDS);
        long[] until = new long[1];
        await("k: the partition of p paused").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> (until[0] = longOf(run, "SELECT coalesce((extract(epoch FROM paused_until) * 1000)::bigint, 0) FROM dispatch.partitions"
                        + " WHERE policy_name = '" + FaultPolicies.PAUSE_POLICY + "' AND partition_key = 'p' AND lane = ''")) > 0);
        List<Long> ofP = new ArrayList<>();
        List<Long> ofQ = new ArrayList<>();
        for (String node : List.of("a", "b")) {
            ofP.addAll(run.server(node).postToFault(job + "p"));
            ofQ.addAll(run.server(node).postToFault(job + "q"));
        }
        List<Long> all = new ArrayList<>(ofP);
        all.addAll(ofQ);
        String ids = all.toString().replace('[', '(').replace(']', ')');
        await("k: the jobs of p and q completed").atMost(Duration.ofSeconds(PAUSE_SECONDS + 60)).pollInterval(Duration.ofMillis(250))
                .until(() -> longOf(run, "SELECT count(*) FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id"
                        + " WHERE a.submission_id IN " + ids + " AND e.batchstatus = 'COMPLETED'") == all.size());
        String pIds = ofP.toString().replace('[', '(').replace(']', ')');
        String qIds = ofQ.toString().replace('[', '(').replace(']', ')');
        long firstOfP = longOf(run, "SELECT (extract(epoch FROM min(admitted_at)) * 1000)::bigint FROM dispatch.admissions WHERE submission_id IN " + pIds);
        long lastOfQ = longOf(run, "SELECT (extract(epoch FROM max(admitted_at)) * 1000)::bigint FROM dispatch.admissions WHERE submission_id IN " + qIds);
        long nodesOfP = longOf(run, "SELECT count(DISTINCT node_id) FROM dispatch.admissions WHERE submission_id IN " + pIds);
        run.note("partitionPause", Map.of("pausedUntilMs", until[0], "firstOfPAdmittedMsAfterIt", firstOfP - until[0],
                "lastOfQAdmittedMsBeforeIt", until[0] - lastOfQ, "nodesThatAdmittedP", nodesOfP));
        if (firstOfP < until[0]) {
            problems.add("a job of the paused tenant p was admitted " + (until[0] - firstOfP) + " ms before its pause ended");
        }
        if (lastOfQ >= until[0]) {
            problems.add("tenant q's jobs waited for p's pause: the last was admitted " + (lastOfQ - until[0]) + " ms after it");
        }
        return problems;
    }

    /**
     * 2 nodes × 4 threads submit one uniqueness key 1,000 times at once (ADR 0036): exactly one job is staged, and the
     * 999 other callers get its id. @return what went wrong (nothing: empty)
     */
    private static List<String> oneJobForAKeySubmittedOnBothNodes(FaultRun run) {
        List<String> problems = new ArrayList<>();
        String order = "k-" + UUID.randomUUID();
        java.util.concurrent.ExecutorService both = java.util.concurrent.Executors.newFixedThreadPool(2);
        List<Long> got = new ArrayList<>();
        Instant started = Instant.now();
        try {
            List<java.util.concurrent.Future<List<Long>>> calls = new ArrayList<>();
            for (String node : List.of("a", "b")) {
                calls.add(both.submit(() -> run.server(node).postToFault("submit-unique?order=" + order + "&threads=4&each=125")));
            }
            for (java.util.concurrent.Future<List<Long>> call : calls) {
                got.addAll(call.get());
            }
        } catch (Exception e) {
            problems.add("the submissions of one key failed: " + e);
            return problems;
        } finally {
            both.shutdownNow();
        }
        long millis = Duration.between(started, Instant.now()).toMillis();
        List<Long> staged = got.stream().filter(id -> id > 0).toList();
        long duplicatesOfIt = staged.size() == 1 ? got.stream().filter(id -> id == -staged.get(0)).count() : 0;
        long jobs = longOf(run, "SELECT (SELECT count(*) FROM dispatch.staged_jobs WHERE job_parameters->>'order' = '" + order + "')"
                + " + (SELECT count(*) FROM job_execution WHERE jobparameters LIKE '%order = " + order + "%')");
        run.note("uniqueKey", Map.of("calls", got.size(), "staged", staged.size(), "duplicatesOfIt", duplicatesOfIt, "jobsInTheDatabase", jobs,
                "millis", millis));
        if (got.size() != 1000 || staged.size() != 1 || duplicatesOfIt != 999 || jobs != 1) {
            problems.add("1,000 submissions of one key through both nodes: " + got.size() + " calls answered, " + staged.size()
                    + " staged, " + duplicatesOfIt + " got its id, " + jobs + " jobs of the key in the database");
        }
        return problems;
    }

    /**
     * Three chunk jobs of tenant {@code i}, 100 items each, submitted one after the other through a, b and a, each once
     * the one before runs (the node a submission reaches admits it first). @return what went wrong (nothing: empty)
     */
    private static List<String> itemRateHoldsAcrossNodes(FaultRun run) {
        List<String> problems = new ArrayList<>();
        update(run, "CREATE TABLE fault_item_reads (tenant text, read_at timestamptz)");
        List<Long> submitted = new ArrayList<>();
        for (String node : List.of("a", "b", "a")) {
            long id = run.server(node).postToFault("submit-job?job=" + FaultPolicies.ITEMS_JOB + "&tenant=i&param=count%3D100").get(0);
            submitted.add(id);
            await("k: item job " + id + " admitted").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> longOf(run, "SELECT count(*) FROM dispatch.admissions WHERE submission_id = " + id) == 1);
        }
        String ids = submitted.toString().replace('[', '(').replace(']', ')');
        await("k: the item jobs completed").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> longOf(run, "SELECT count(*) FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id"
                        + " WHERE a.submission_id IN " + ids + " AND e.batchstatus = 'COMPLETED'") == 3);
        List<Long> at = new ArrayList<>();
        try (Connection c = run.database().connect();
             PreparedStatement st = c.prepareStatement("SELECT (extract(epoch FROM read_at) * 1000000)::bigint FROM fault_item_reads"
                     + " WHERE tenant = 'i' ORDER BY read_at")) {
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    at.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            problems.add("reading the item reads: " + e);
            return problems;
        }
        double rate = FaultPolicies.ITEM_RATE;
        double bucket = FaultPolicies.ITEM_RATE;
        int worst = 0;
        for (int i = 0; i < at.size(); i++) {
            for (int j = i; j < at.size(); j++) {
                double seconds = (at.get(j) - at.get(i)) / 1e6;
                if (j - i + 1 > (rate * seconds + bucket) * 1.05 + 1) {
                    worst = Math.max(worst, j - i + 1);
                }
            }
        }
        double seconds = at.size() < 2 ? 0 : (at.get(at.size() - 1) - at.get(0)) / 1e6;
        long nodes = longOf(run, "SELECT count(DISTINCT node_id) FROM dispatch.admissions WHERE submission_id IN " + ids);
        run.note("itemThrottle", Map.of("items", at.size(), "seconds", seconds, "itemsPerSecond", at.size() < 2 ? 0 : (at.size() - bucket) / seconds,
                "nodesThatRanThem", nodes));
        if (at.size() != 300) {
            problems.add("the item jobs read " + at.size() + " items, not 300");
        }
        if (worst > 0) {
            problems.add("a window of the tenant's reads held " + worst + " items, more than 20 a second plus a bucket");
        }
        // which node runs them is whichever tick claims the tenant's one partition first: both, usually, but not
        // by any rule (CI of 2026-11-28 saw one), so it is recorded, not required; the bound above holds either way
        if (nodes != 2) {
            run.note("itemThrottleOnOneNode", "the item jobs ran on " + nodes + " node(s) this run: the bucket was shared by one node's runs only");
        }
        return problems;
    }

    private static long longOf(FaultRun run, String sql) {
        try (Connection c = run.database().connect(); PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void update(FaultRun run, String sql) {
        try (Connection c = run.database().connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
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
