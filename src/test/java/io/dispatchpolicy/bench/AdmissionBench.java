package io.dispatchpolicy.bench;

import io.dispatchpolicy.it.Operators;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.it.Deployments;
import io.dispatchpolicy.it.Params;
import io.dispatchpolicy.tick.TickRunner;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The benchmark scenarios of docs/benchmarks.md, run inside the server in one deployment so raw
 * JBeret and the policy layer are measured on the same JVM, thread pool and database. Each scenario
 * records figures; targets are ratios of figures from this same run.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionBench extends BenchSupport {

    private static final Logger LOG = Logger.getLogger(AdmissionBench.class.getName());
    private static final BenchResults RESULTS = new BenchResults();
    @Deployment
    static EnterpriseArchive deployment() {
        return Deployments.ear(true);
    }

    // ---------------------------------------------------------------- 1. raw JBeret

    @Test
    @Order(1)
    void rawJBeretBaseline() throws Exception {
        tick(false);
        JobOperator jberet = BatchRuntime.getJobOperator();
        for (String job : List.of("bench-noop", "bench-chunk")) {
            for (int threads : new int[] {1, 4}) {
                // from 4 threads, the same work as the governed cases it is compared with (issue 34): as many
                // no-op jobs as the end-to-end cases, as many chunk jobs as the chunk case; from 1 thread, a
                // sample of creation alone (staging's ratio)
                int n = threads == 1 ? (job.equals("bench-noop") ? 2_000 : 1_000)
                        : job.equals("bench-noop") ? endToEndJobs() : chunkJobs();
                long since = maxExecutionId();
                long startMillis = System.currentTimeMillis();
                long elapsed = parallel(threads, n, i -> jberet.start(job, new Properties()));
                awaitCount(() -> executionsSince(true, job, since, n), n, Duration.ofMinutes(15), Duration.ofSeconds(1));
                String name = "raw JBeret start(), " + job + ", " + threads + " thread" + (threads > 1 ? "s" : "");
                RESULTS.add(name + ": executions created", "executions/s", n / (elapsed / 1e9));
                // timed to JBeret's record of the last end, as the governed cases are: the same clock for both
                RESULTS.add(name + ": executions completed", "executions/s", perMilli(n, startMillis, lastMillis("endtime", job, since)));
            }
        }
    }

    // ---------------------------------------------------------------- 2. staging

    @Test
    @Order(2)
    void staging() throws Exception {
        tick(false);
        // plain, with lanes (the cost of a key's gate row beside its lane row), and with a demotion rule too
        // (each submission counted for its tenant)
        List<String> jobs = List.of("bench-stage", "bench-stage-lanes", "bench-stage-demote");
        List<String> prefixes = List.of("staging, ", "staging with lanes, ", "staging with demotion rules, ");
        List<String> kinds = List.of("single submissions, 1 thread", "single submissions, 4 threads", "bulk submissions of 10,000");
        // Interleaved, not one policy after the other: each case of a policy once first, once second and once
        // third, each after a drain and a VACUUM of what the case before left. Run in sequence, the last
        // policy ran beside the autovacuum of the 250,000 rows the first two had staged and drained, and the
        // first one before the JIT had compiled the staging path: with the same code, lanes alone (which cost
        // nothing measurable) measured 1.4 x and 0.7 x plain in one run (run 20).
        for (String job : jobs) {
            parallel(1, 1_000, i -> governed.start(job, Params.of("tenant", "t" + (i % 100))));
            control.drain(job, Operators.ADMIN);
        }
        vacuumStaging();
        long[][] jobsDone = new long[jobs.size()][kinds.size()];
        long[][] nanos = new long[jobs.size()][kinds.size()];
        List<Properties> bulk = jobs(10_000, 100, "t");
        int rounds = 3;
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < jobs.size(); k++) {
                int j = (round + k) % jobs.size();
                String job = jobs.get(j);
                boolean last = round == rounds - 1;
                for (int t = 0; t < 2; t++) {
                    int threads = t == 0 ? 1 : 4;
                    int n = 2_000 * threads;
                    Statements profile = last ? Statements.start(jdbc) : null;
                    nanos[j][t] += parallel(threads, n, i -> governed.start(job, Params.of("tenant", "t" + (i % 100))));
                    jobsDone[j][t] += n;
                    if (profile != null) {
                        profile.write(benchDir().resolve("statements-staging-" + job + "-" + threads + "-threads.txt"), n);
                    }
                }
                long start = System.nanoTime();
                for (int call = 0; call < 3; call++) {
                    dispatch.submitAll(job, bulk);
                }
                nanos[j][2] += System.nanoTime() - start;
                jobsDone[j][2] += 3 * 10_000L;
                control.drain(job, Operators.ADMIN);
                vacuumStaging();
            }
        }
        for (int j = 0; j < jobs.size(); j++) {
            for (int k = 0; k < kinds.size(); k++) {
                RESULTS.add(prefixes.get(j) + kinds.get(k), "jobs/s", jobsDone[j][k] / (nanos[j][k] / 1e9));
            }
        }
        for (String kind : kinds) {
            // counted first, in the submitting transaction (ADR 0011): one more round trip per call, which a
            // single submission feels and a bulk call does not (issue 32's bounds)
            double bound = kind.startsWith("bulk") ? 0.85 : 0.65;
            RESULTS.target("staging with demotion rules, " + kind, "staging with / without demotion rules (" + kind + ")",
                    RESULTS.value("staging with demotion rules, " + kind) / RESULTS.value("staging, " + kind), ">=", bound);
            RESULTS.add("staging: with lanes / without (" + kind + ")", "ratio",
                    RESULTS.value("staging with lanes, " + kind) / RESULTS.value("staging, " + kind));
        }

        double raw = RESULTS.value("raw JBeret start(), bench-noop, 1 thread: executions created");
        RESULTS.target("staging, single submissions, 1 thread", "single staging / raw start rate (1 thread)",
                RESULTS.value("staging, single submissions, 1 thread") / raw, ">=", 3.0);
        RESULTS.target("staging, bulk submissions of 10,000", "bulk staging jobs/s",
                RESULTS.value("staging, bulk submissions of 10,000"), ">=", 25_000);
    }

    /** What a drained case left behind, vacuumed before the next case is timed (VACUUM runs outside a transaction). */
    private void vacuumStaging() throws Exception {
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE dispatch.staged_jobs, dispatch.partitions, dispatch.tenant_windows");
        }
    }

    // ---------------------------------------------------------------- 3. admission end to end

    @Test
    @Order(3)
    void admissionEndToEnd() {
        // prioritized: one job in ten of each bulk call at priority 5 (its own call, spread over the
        // same partitions), run right after the same case without priorities so the ratio compares
        // neighbours in time
        // a case may run with a setting of its own (the node limit off: what it costs, in the same run)
        // (-Dbench.server.jvm="-Ddispatch.test.bench.e2e.settings=a=1;b=2;a=1": more cases of 100 partitions, each
        // with its setting, a repeated one numbered: A/B pairs interleaved in one run, where noise compares)
        // costs: half the jobs of each call at SubmitOption.cost(4) (ADR 0035), against the same jobs at cost 1,
        // both with the node limit off: the engine's own work for costs, not what the costs mean for a node's threads
        record Case(String job, int jobs, int partitions, boolean prioritized, String setting, int repeat, boolean costs) {
            Case(String job, int jobs, int partitions, boolean prioritized) {
                this(job, jobs, partitions, prioritized, null, 1, false);
            }

            Case(String job, int jobs, int partitions, boolean prioritized, String setting, int repeat) {
                this(job, jobs, partitions, prioritized, setting, repeat, false);
            }

            String name() {
                return "admission end to end, " + job + ", " + jobs + " jobs over " + partitions + " partitions"
                        + (prioritized ? ", 10 % at priority 5" : "") + (costs ? ", half at cost 4" : "")
                        + (setting == null ? "" : ", " + setting) + (repeat > 1 ? " (" + repeat + ")" : "");
            }
        }
        int n = endToEndJobs();
        Case one = new Case("bench-e2e", n, 1, false);
        Case hundredCase = new Case("bench-e2e", n, 100, false);
        Case prioritizedCase = new Case("bench-e2e", n, 100, true);
        Case tenThousandCase = new Case("bench-e2e", n, 10_000, false);
        Case chunkCase = new Case("bench-e2e-chunk", chunkJobs(), 100, false);
        Case unlimitedCase = new Case("bench-e2e", n, 100, false, "dispatch.node-threads=unlimited", 1);
        Case costsCase = new Case("bench-e2e", n, 100, false, "dispatch.node-threads=unlimited", 1, true);
        List<Case> cases = new ArrayList<>(List.of(one, hundredCase, prioritizedCase, tenThousandCase, chunkCase,
                unlimitedCase, costsCase));
        java.util.Map<String, Integer> repeats = new java.util.HashMap<>();
        for (String extra : System.getProperty("dispatch.test.bench.e2e.settings", "").split(";")) {
            if (!extra.isBlank()) {
                cases.add(new Case("bench-e2e", n, 100, false, extra.strip(), repeats.merge(extra.strip(), 1, Integer::sum)));
            }
        }
        for (Case c : cases) {
            tick(false);
            String[] setting = c.setting() == null ? null : c.setting().split("=", 2);
            if (setting != null) {
                System.setProperty(setting[0], setting[1]);
            }
            for (int from = 0; from < c.jobs(); from += 10_000) {
                List<Properties> chunk = jobs(10_000, c.partitions(), "p" + c.partitions() + "-");
                if (c.prioritized()) {
                    dispatch.submitAll(c.job(), chunk.subList(0, 9_000));
                    dispatch.submitAll(c.job(), chunk.subList(9_000, 10_000), SubmitOption.priority(5));
                } else if (c.costs()) {
                    dispatch.submitAll(c.job(), chunk.subList(0, 5_000));
                    dispatch.submitAll(c.job(), chunk.subList(5_000, 10_000), SubmitOption.cost(4));
                } else {
                    dispatch.submitAll(c.job(), chunk);
                }
            }
            analyzeJBeret();
            analyzeEngine();
            Statements profile = Statements.start(jdbc);
            long since = maxExecutionId();
            long start = System.currentTimeMillis();
            tick(true);
            awaitCount(() -> executionsSince(false, c.job(), since, c.jobs()), c.jobs(), Duration.ofMinutes(6), Duration.ofSeconds(1));
            awaitCount(() -> executionsSince(true, c.job(), since, c.jobs()), c.jobs(), Duration.ofMinutes(6), Duration.ofSeconds(1));
            String name = c.name();
            profile.write(benchDir().resolve("statements-" + c.partitions() + "-" + c.job()
                    + (c.prioritized() ? "-prioritized" : "") + (c.costs() ? "-costs" : "") + (c.setting() == null ? "" : "-" + c.setting().replaceAll("[^a-z0-9]+", "-") + "-" + c.repeat())
                    + ".txt"), c.jobs());
            RESULTS.add(name + ": executions created", "executions/s", perMilli(c.jobs(), start, lastMillis("createtime", c.job(), since)));
            RESULTS.add(name + ": executions completed", "executions/s", perMilli(c.jobs(), start, lastMillis("endtime", c.job(), since)));
            tick(false);
            if (setting != null) {
                System.clearProperty(setting[0]);
            }
        }
        // completions first (issue 34): a user waits for jobs to end, and raw start() did the same work (the
        // same number of jobs from 4 threads, as many as the tick workers); creation is a secondary figure
        String rawNoop = "raw JBeret start(), bench-noop, 4 threads: executions ";
        for (Case c : List.of(hundredCase, tenThousandCase, chunkCase)) {
            String raw = c == chunkCase ? "raw JBeret start(), bench-chunk, 4 threads: executions " : rawNoop;
            String what = c == chunkCase ? "chunk jobs" : "admission (" + String.format("%,d", c.partitions()) + " partitions)";
            RESULTS.target(c.name() + ": executions completed", what + " / raw start() (4 threads, same jobs): completed per second",
                    RESULTS.value(c.name() + ": executions completed") / RESULTS.value(raw + "completed"), ">=", 1.0);
            RESULTS.add(what + " / raw start() (4 threads, same jobs): created per second", "ratio",
                    RESULTS.value(c.name() + ": executions created") / RESULTS.value(raw + "created"));
        }
        String hundred = hundredCase.name() + ": executions completed";
        String prioritized = prioritizedCase.name() + ": executions completed";
        RESULTS.target(prioritized, "admission with 10 % at priority 5 / all at priority 0 (100 partitions): completed per second",
                RESULTS.value(prioritized) / RESULTS.value(hundred), ">=", 0.9);
        String costs = costsCase.name() + ": executions completed";
        RESULTS.target(costs, "admission with half the jobs at cost 4 / all at cost 1 (100 partitions, node limit off): completed per second",
                RESULTS.value(costs) / RESULTS.value(unlimitedCase.name() + ": executions completed"), ">=", 0.9);
    }

    /** No-op jobs of each end-to-end case: -Dbench.e2e.jobs (smaller for the durable run, whose commits wait for the disk), 10,000 at least. */
    private static int endToEndJobs() {
        return Math.max(10_000, Integer.getInteger("dispatch.test.bench.e2e.jobs", 100_000) / 10_000 * 10_000);
    }

    /** Chunk jobs of the chunk case, and of raw start()'s chunk case from 4 threads. */
    private static int chunkJobs() {
        return Math.min(10_000, endToEndJobs());
    }

    // ---------------------------------------------------------------- 3b. lanes

    /**
     * The same 50,000 jobs over 100 partitions, under a tick budget that binds (so the lanes' share
     * discipline runs every iteration): without lanes, then in thirds over three lanes 6 : 3 : 1.
     */
    @Test
    @Order(4)
    void admissionWithLanes() {
        java.util.Map<String, Double> rate = new java.util.HashMap<>();
        for (String job : List.of("bench-e2e-budget", "bench-e2e-lanes")) {
            tick(false);
            for (int from = 0; from < 50_000; from += 10_000) {
                List<Properties> chunk = jobs(10_000, 100, "lanes-");
                if (job.equals("bench-e2e-lanes")) {
                    List<String> lanes = List.of("critical", "default", "bulk");
                    for (int l = 0; l < 3; l++) {
                        dispatch.submitAll(job, chunk.subList(l * 10_000 / 3, (l + 1) * 10_000 / 3), SubmitOption.lane(lanes.get(l)));
                    }
                } else {
                    dispatch.submitAll(job, chunk);
                }
            }
            analyzeJBeret();
            long since = maxExecutionId();
            long start = System.currentTimeMillis();
            tick(true);
            awaitCount(() -> executionsSince(false, job, since, 50_000), 50_000, Duration.ofMinutes(6));
            String name = "admission with a binding tick budget, " + job + ", 50000 jobs over 100 partitions: executions created";
            RESULTS.add(name, "executions/s", perMilli(50_000, start, lastMillis("createtime", job, since)));
            rate.put(job, RESULTS.value(name));
            awaitCount(() -> executionsSince(true, job, since, 50_000), 50_000, Duration.ofMinutes(6));
        }
        tick(false);
        RESULTS.target("admission with a binding tick budget, bench-e2e-lanes, 50000 jobs over 100 partitions: executions created",
                "admission with three lanes / without lanes (same tick budget, 100 partitions)",
                rate.get("bench-e2e-lanes") / rate.get("bench-e2e-budget"), ">=", 0.9);
    }

    // ---------------------------------------------------------------- 3c. tick workers

    /**
     * The same 50,000 jobs over 100 partitions admitted by 1, 2 and 4 tick workers (the node's own tick
     * off, the workers are this test's threads iterating the node's TickRunner, as
     * {@code dispatch.tick-workers} loops do): which count the default should be.
     */
    @Test
    @Order(5)
    void admissionByTickWorkers() throws Exception {
        for (int workers : new int[] {1, 2, 4}) {
            tick(false);
            for (int from = 0; from < 50_000; from += 10_000) {
                dispatch.submitAll("bench-workers", jobs(10_000, 100, "w" + workers + "-"));
            }
            analyzeJBeret();
            long since = maxExecutionId();
            long start = System.currentTimeMillis();
            admitByWorkers(workers, "bench-workers", since, 50_000, Duration.ofMinutes(6));
            awaitCount(() -> executionsSince(false, "bench-workers", since, 50_000), 50_000, Duration.ofMinutes(1));
            RESULTS.add("admission by " + workers + " tick worker" + (workers > 1 ? "s" : "")
                    + ", 50000 jobs over 100 partitions: executions created", "executions/s",
                    perMilli(50_000, start, lastMillis("createtime", "bench-workers", since)));
            awaitCount(() -> executionsSince(true, "bench-workers", since, 50_000), 50_000, Duration.ofMinutes(6));
        }
        String one = "admission by 1 tick worker, 50000 jobs over 100 partitions: executions created";
        for (int workers : new int[] {2, 4}) {
            RESULTS.add("admission: " + workers + " tick workers / 1", "ratio",
                    RESULTS.value("admission by " + workers + " tick workers, 50000 jobs over 100 partitions: executions created")
                            / RESULTS.value(one));
        }
    }

    // ---------------------------------------------------------------- 4. claim flatness

    @Test
    @Order(6)
    void claimFlatness() throws Exception {
        double small = medianIteration(1_000, 100, "small-", () -> { });
        double large = medianIteration(1_000_000, 100_000, "large-", () -> explainClaim("claim-plan-1m.txt",
                "1,000,000 staged in 100,000 partitions"));
        RESULTS.add("tick iteration, 1,000 staged in 100 partitions (median)", "ms", small);
        RESULTS.add("tick iteration, 1,000,000 staged in 100,000 partitions (median)", "ms", large);
        RESULTS.target("tick iteration, 1,000,000 staged in 100,000 partitions (median)",
                "claim flatness: 1M-backlog / 1k-backlog iteration time", large / small, "<=", 1.5);

        // The same 1,000 due jobs, beside 1,000,000 delayed an hour into 100,000 partitions of their
        // own (nothing due there, so neither the claim nor the promotion step may read them) and
        // 100,000 more delayed inside the 100 due partitions. Compared with the small case of this run.
        tick(false);
        for (int from = 0; from < 900_000; from += 10_000) {
            dispatch.submitAll("bench-flat", jobs(10_000, 100_000, "delayed-"), SubmitOption.delay(Duration.ofHours(1)));
        }
        for (int from = 0; from < 100_000; from += 10_000) {
            dispatch.submitAll("bench-flat", jobs(10_000, 100, "small-"), SubmitOption.delay(Duration.ofHours(1)));
        }
        double delayed = medianIteration(1_000, 100, "small-", () -> explainClaim("claim-plan-1m-delayed.txt",
                "1,000 due in 100 partitions beside 1,000,000 delayed"));
        RESULTS.add("tick iteration, 1,000 due in 100 partitions beside 1,000,000 delayed (median)", "ms", delayed);
        RESULTS.target("tick iteration, 1,000 due in 100 partitions beside 1,000,000 delayed (median)",
                "claim flatness: 1M delayed + 1k due / 1k due iteration time", delayed / small, "<=", 1.5);
        control.drain("bench-flat", Operators.ADMIN);
    }

    interface Step {
        void run() throws Exception;
    }

    /**
     * Stages, then times iterations that each claim 50 partitions and admit one job from each;
     * {@code after} runs once they are timed, before the policy's backlog is drained.
     */
    private double medianIteration(int jobs, int partitions, String prefix, Step after) throws Exception {
        return medianIteration("bench-flat", jobs, partitions, prefix, after);
    }

    /** As above, for the policy of {@code job}; for bench-flat-usage half of each call is offset by 30 s. */
    private double medianIteration(String job, int jobs, int partitions, String prefix, Step after) throws Exception {
        tick(false);
        for (int from = 0; from < jobs; from += 10_000) {
            List<Properties> chunk = jobs(Math.min(10_000, jobs - from), partitions, prefix);
            if (job.equals("bench-flat-usage")) {
                dispatch.submitAll(job, chunk.subList(0, chunk.size() / 2));
                dispatch.submitAll(job, chunk.subList(chunk.size() / 2, chunk.size()), SubmitOption.priorityOffset(Duration.ofSeconds(30)));
            } else {
                dispatch.submitAll(job, chunk);
            }
        }
        analyzeEngine();
        double median = medianIterationMillis();
        after.run();
        control.drain(job, Operators.ADMIN);
        return median;
    }

    /** EXPLAIN ANALYZE of the claim as it runs, rolled back, kept for docs/benchmarks.md. */
    private void explainClaim(String file, String what) throws Exception {
        StringBuilder plan = new StringBuilder();
        tx.begin();
        try (Connection c = jdbc.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + io.dispatchpolicy.tick.Claims.CLAIM_SQL)) {
            s.setInt(1, 50);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
        } finally {
            tx.rollback();
        }
        Files.createDirectories(benchDir());
        Files.writeString(benchDir().resolve(file), plan.toString());
        RESULTS.note("claim plan (" + what + ")", plan.toString());
    }

    // ---------------------------------------------------------------- 4d. submission controls (issue 36)

    /**
     * Staging with a uniqueness key and with a deadline against plain staging, the same parameters, in interleaved
     * rounds (ADR 0036): single submissions on 1 and 4 threads, bulk calls of 10,000. Every key is new, so each
     * job claims its key: the whole cost of uniqueness, none of the duplicates' (which stage nothing).
     */
    @Test
    @Order(12)
    void stagingWithSubmissionControls() throws Exception {
        tick(false);
        String run = Long.toString(System.nanoTime());
        // "plain, again" is plain staging measured twice: the harness's own spread between two identical cases
        List<String> cases = List.of("plain", "unique key", "deadline", "plain, again");
        List<String> kinds = List.of("single submissions, 1 thread", "single submissions, 4 threads", "bulk submissions of 10,000");
        java.util.concurrent.atomic.AtomicLong seq = new java.util.concurrent.atomic.AtomicLong();
        java.util.function.BiConsumer<String, List<Properties>> submit = (c, jobs) -> {
            switch (c) {
                case "plain", "plain, again" -> dispatch.submitAll("bench-stage", jobs);
                case "unique key" -> dispatch.submitAll("bench-stage-unique", jobs);
                default -> dispatch.submitAll("bench-stage", jobs, SubmitOption.expireAfter(Duration.ofHours(1)));
            }
        };
        java.util.function.IntFunction<Properties> job = i -> Params.of("tenant", "t" + (i % 100), "order", run + "-" + seq.incrementAndGet());
        for (String c : cases) { // warm each path
            parallel(1, 500, i -> submit.accept(c, List.of(job.apply(i))));
        }
        drainControlled();
        long[][] done = new long[cases.size()][kinds.size()];
        long[][] nanos = new long[cases.size()][kinds.size()];
        int rounds = cases.size();
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < cases.size(); k++) {
                int c = (round + k) % cases.size();
                String name = cases.get(c);
                for (int t = 0; t < 2; t++) {
                    int threads = t == 0 ? 1 : 4;
                    int n = 2_000 * threads;
                    nanos[c][t] += parallel(threads, n, i -> submit.accept(name, List.of(job.apply(i))));
                    done[c][t] += n;
                }
                List<List<Properties>> bulks = new ArrayList<>();
                for (int call = 0; call < 3; call++) {
                    List<Properties> bulk = new ArrayList<>(10_000);
                    for (int i = 0; i < 10_000; i++) {
                        bulk.add(job.apply(i));
                    }
                    bulks.add(bulk);
                }
                long start = System.nanoTime();
                bulks.forEach(b -> submit.accept(name, b));
                nanos[c][2] += System.nanoTime() - start;
                done[c][2] += 30_000L;
                drainControlled();
            }
        }
        for (int c = 0; c < cases.size(); c++) {
            for (int k = 0; k < kinds.size(); k++) {
                RESULTS.add("staging (" + cases.get(c) + "), " + kinds.get(k), "jobs/s", done[c][k] / (nanos[c][k] / 1e9));
            }
        }
        for (String kind : kinds) {
            // the baseline is both plain cases: in a fixed rotation each case always follows the same one, and two
            // identical plain cases measured 1.1-1.2 x apart (run 37)
            double plain = (RESULTS.value("staging (plain), " + kind) + RESULTS.value("staging (plain, again), " + kind)) / 2;
            RESULTS.target("staging (unique key), " + kind, "staging with a uniqueness key / plain (" + kind + ")",
                    RESULTS.value("staging (unique key), " + kind) / plain, ">=", 0.75);
            RESULTS.target("staging (deadline), " + kind, "staging with a deadline / plain (" + kind + ")",
                    RESULTS.value("staging (deadline), " + kind) / plain, ">=", 0.95);
            RESULTS.add("staging: plain, again / plain (" + kind + ")", "ratio", RESULTS.value("staging (plain, again), " + kind) / plain);
        }
    }

    private void drainControlled() throws Exception {
        control.drain("bench-stage", Operators.ADMIN);
        control.drain("bench-stage-unique", Operators.ADMIN);
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM dispatch.submission_keys WHERE policy_name = 'bench-stage-unique'");
            s.execute("VACUUM ANALYZE dispatch.staged_jobs, dispatch.partitions, dispatch.submission_keys");
        }
    }

    /**
     * The tick beside 1,000,000 jobs past their deadline that no sweep has reached (ADR 0036): the 1,000 live jobs
     * of the small claim case in 100 partitions, and 1,000,000 expired ones in 100,000 partitions of their own,
     * against the small case of this run. The tick expires at most a batch per iteration and an admission records
     * what it takes that has expired: neither reads the million one by one.
     */
    @Test
    @Order(13)
    void claimFlatnessBesideAMillionExpired() throws Exception {
        double small = medianIteration(1_000, 100, "small-", () -> { });
        tick(false);
        for (int from = 0; from < 1_000_000; from += 10_000) {
            dispatch.submitAll("bench-flat-expired", jobs(10_000, 100_000, "expired-"),
                    SubmitOption.deadline(java.time.Instant.now().plusSeconds(2)));
        }
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_sleep(2.5)"); // every deadline passes: the expired are there, unswept
        }
        long expiredBefore = expiredUnswept();
        double beside = medianIteration(1_000, 100, "small-", () -> explainClaim("claim-plan-1m-expired.txt",
                "1,000 live in 100 partitions beside 1,000,000 expired"));
        long expiredAfter = expiredUnswept();
        RESULTS.add("tick iteration, 1,000 in 100 partitions (median), this case's baseline", "ms", small);
        RESULTS.add("tick iteration, 1,000 in 100 partitions beside 1,000,000 expired unswept (median)", "ms", beside);
        RESULTS.note("expired unswept during the timed iterations", expiredBefore + " before, " + expiredAfter + " after");
        RESULTS.target("tick iteration, 1,000 in 100 partitions beside 1,000,000 expired unswept (median)",
                "claim flatness: 1M expired + 1k live / 1k live iteration time", beside / small, "<=", 1.5);
        control.drain("bench-flat-expired", Operators.ADMIN);
    }

    private long expiredUnswept() throws Exception {
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM dispatch.staged_jobs WHERE expires_at <= clock_timestamp()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ---------------------------------------------------------------- 4c. item-throttled chunk jobs

    /**
     * Ten concurrent chunk jobs of one tenant, 200 items each, drawing from its bucket of 200 items a second
     * (issue 35, ADR 0034): the rate they read at together, after the bucket's first 200, against the rate
     * configured. Each draw is a transaction of its own: this is what it costs a fast reader.
     */
    @Test
    @Order(11)
    void itemThrottledChunkJobs() {
        tick(true);
        BenchArtifacts.ITEM_READS.clear();
        int jobs = 10;
        int items = 200;
        List<Properties> each = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            each.add(Params.of("tenant", "items", "count", String.valueOf(items)));
        }
        long[] ids = dispatch.submitAll("bench-items", each);
        JobOperator jberet = BatchRuntime.getJobOperator();
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> java.util.Arrays.stream(ids)
                .allMatch(id -> dispatch.status(id).executionId().isPresent()
                        && jberet.getJobExecution(dispatch.status(id).executionId().getAsLong()).getEndTime() != null));
        List<Long> reads = new ArrayList<>(BenchArtifacts.ITEM_READS);
        reads.sort(null);
        int bucket = BenchPolicies.ITEM_RATE;
        double seconds = (reads.get(reads.size() - 1) - reads.get(bucket - 1)) / 1e9;
        double rate = (reads.size() - bucket) / seconds;
        String name = "item-throttled chunk jobs, " + jobs + " concurrent, " + items + " items each, " + BenchPolicies.ITEM_RATE + " items/s";
        RESULTS.add(name + ": items read", "items/s", rate);
        RESULTS.target(name + ": items read", "item-throttled reads / the configured item rate (10 concurrent jobs)",
                rate / BenchPolicies.ITEM_RATE, ">=", 0.95);
        tick(false);
    }

    // ---------------------------------------------------------------- 5. latency

    @Test
    @Order(7)
    void latencyOnAnIdleSystem() {
        tick(true);
        JobOperator jberet = BatchRuntime.getJobOperator();
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            long submitted = System.currentTimeMillis();
            long id = governed.start("bench-latency", Params.of("tenant", "latency"));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                    .until(() -> dispatch.status(id).executionId().isPresent()
                            && jberet.getJobExecution(dispatch.status(id).executionId().getAsLong()).getEndTime() != null);
            long started = jberet.getJobExecution(dispatch.status(id).executionId().getAsLong()).getStartTime().getTime();
            latencies.add(started - submitted);
        }
        RESULTS.add("latency submit -> start, idle, p50", "ms", percentile(latencies, 50));
        RESULTS.add("latency submit -> start, idle, p99", "ms", percentile(latencies, 99));
        RESULTS.target("latency submit -> start, idle, p50", "latency p50 (ms)", percentile(latencies, 50), "<=", 150);
        RESULTS.target("latency submit -> start, idle, p99", "latency p99 (ms)", percentile(latencies, 99), "<=", 1500);
    }

    // ---------------------------------------------------------------- 6. fairness under a storm

    @Test
    @Order(8)
    void fairnessUnderAStorm() throws Exception {
        tick(true);
        double governedP95 = storm("bench-storm").p95();
        double rawP95 = storm("bench-storm-raw").p95();
        Storm lanes = storm("bench-storm-lanes");
        RESULTS.add("storm: small tenants' p95 wait, with lanes 9 : 1 and demotion", "ms", lanes.p95());
        RESULTS.add("storm: big tenant's completions per second while the small tenants submit, with lanes", "executions/s",
                lanes.bigPerSecond());
        RESULTS.target("storm: small tenants' p95 wait, with lanes 9 : 1 and demotion",
                "storm p95: with lanes and demotion / without (same run)", lanes.p95() / governedP95, "<=", 1.0);
        // the capacity of 10 slots, jobs of 20 ms: 500 executions/s at most; the big tenant gets at least 10 %
        RESULTS.target("storm: big tenant's completions per second while the small tenants submit, with lanes",
                "big tenant's rate / capacity's rate (10 slots, 20 ms jobs)", lanes.bigPerSecond() / 500.0, ">=", 0.1);
        RESULTS.add("storm: small tenants' p95 wait, with the policy", "ms", governedP95);
        RESULTS.add("storm: small tenants' p95 wait, plain JobOperator.start", "ms", rawP95);
        RESULTS.target("storm: small tenants' p95 wait, with the policy", "storm p95 wait with the policy (ms)",
                governedP95, "<=", 2000);
        RESULTS.target("storm: small tenants' p95 wait, with the policy", "storm p95: without / with the policy",
                rawP95 / governedP95, ">=", 20);
    }

    /** A storm's outcome: the small tenants' p95 wait (ms), and the big tenant's completions per second meanwhile. */
    record Storm(double p95, double bigPerSecond) {
    }

    /**
     * One tenant submits 50,000 jobs at once while 100 others each submit 20 over ~30 s.
     *
     * @param job bench-storm-raw for plain JobOperator.start, else a governed storm job
     */
    private Storm storm(String job) throws Exception {
        boolean governedRun = !job.endsWith("-raw");
        long stormFrom = maxExecutionId();
        JobOperator jberet = BatchRuntime.getJobOperator();
        ConcurrentLinkedQueue<long[]> small = new ConcurrentLinkedQueue<>();
        Future<?> burst = executor.submit(() -> {
            if (governedRun) {
                dispatch.submitAll(job, jobs(50_000, 1, "big"));
            } else {
                parallelQuietly(4, 50_000, i -> jberet.start(job, Params.of("tenant", "big")));
            }
        });
        long stormStart = System.nanoTime();
        for (int round = 0; round < 20; round++) {
            long roundStart = System.nanoTime();
            for (int t = 0; t < 100; t++) {
                long submitted = System.currentTimeMillis();
                long id = governedRun ? governed.start(job, Params.of("tenant", "small-" + t))
                        : jberet.start(job, Params.of("tenant", "small-" + t));
                small.add(new long[] {id, submitted});
            }
            long left = 1_500_000_000L - (System.nanoTime() - roundStart);
            if (left > 0) {
                Thread.sleep(left / 1_000_000);
            }
        }
        // the big tenant's completions while the small tenants submitted
        long bigDone = count(COMPLETED_SINCE + " AND e.jobparameters LIKE '%tenant = big%'", job, stormFrom);
        double stormSeconds = (System.nanoTime() - stormStart) / 1e9;
        burst.get();
        // Start times straight from JOB_EXECUTION (a submission id resolves through dispatch.admissions).
        String startTimes = governedRun
                ? "SELECT a.submission_id, (extract(epoch FROM e.starttime) * 1000)::bigint FROM dispatch.admissions a "
                + "JOIN job_execution e ON e.jobexecutionid = a.execution_id WHERE a.submission_id = ANY(?) AND e.starttime IS NOT NULL"
                : "SELECT jobexecutionid, (extract(epoch FROM starttime) * 1000)::bigint FROM job_execution "
                + "WHERE jobexecutionid = ANY(?) AND starttime IS NOT NULL";
        Long[] ids = small.stream().map(s -> s[0]).toArray(Long[]::new);
        java.util.Map<Long, Long> started = new java.util.HashMap<>();
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
            started.clear();
            jdbc.query(startTimes, (c, st) -> st.setArray(1, c.createArrayOf("bigint", ids)),
                    rs -> started.put(rs.getLong(1), rs.getLong(2)));
            return started.size() == ids.length;
        });
        List<Long> waits = new ArrayList<>();
        for (long[] s : small) {
            waits.add(started.get(s[0]) - s[1]);
        }
        if (governedRun) {
            control.drain(job, Operators.ADMIN);
        }
        long since = maxExecutionId();
        await().atMost(Duration.ofMinutes(5)).until(() -> count("SELECT count(*) FROM job_execution WHERE batchstatus IN "
                + "('STARTING', 'STARTED') AND jobexecutionid <= ?", since) == 0);
        return new Storm(percentile(waits, 95), bigDone / stormSeconds);
    }

    private void parallelQuietly(int threads, int n, java.util.function.IntConsumer call) {
        try {
            parallel(threads, n, call);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- 7. slot utilization

    /**
     * Capped partitions with a backlog of short jobs: how much of each partition's cap is busy while
     * its backlog lasts. Slots total no more than the batch threads (10), so only admission can leave
     * one idle; before freed slots woke their partition, each waited out the 1 s full-backoff.
     */
    @Test
    @Order(9)
    void slotUtilization() {
        tick(true);
        double three = utilization("bench-slots", 3, 3, 60);
        double one = utilization("bench-slot1", 1, 1, 40);
        String manyName = "slot utilization: 3 partitions x cap 3, jobs 100-200 ms (busy / cap while backlog remains)";
        String oneName = "slot utilization: 1 partition x cap 1, jobs 100-200 ms (busy / cap while backlog remains)";
        RESULTS.add(manyName, "ratio", three);
        RESULTS.add(oneName, "ratio", one);
        RESULTS.target(manyName, "slot utilization, 3 x cap 3", three, ">=", 0.8);
        RESULTS.target(oneName, "slot utilization, 1 x cap 1", one, ">=", 0.8);
    }

    /** Mean over partitions of busy time / (cap x time from its first start to its last start). */
    private double utilization(String job, int partitions, int cap, int perPartition) {
        long since = maxExecutionId();
        java.util.Random random = new java.util.Random(42);
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < perPartition; i++) {
            for (int p = 0; p < partitions; p++) {
                jobs.add(Params.of("tenant", job + "-" + p, "millis", Integer.toString(100 + random.nextInt(101))));
            }
        }
        dispatch.submitAll(job, jobs);
        awaitCount(() -> executionsSince(true, job, since, jobs.size()), jobs.size(), Duration.ofMinutes(5));
        java.util.Map<String, List<long[]>> runs = new java.util.HashMap<>();
        jdbc.query("SELECT p.partition_key, (extract(epoch FROM e.starttime) * 1000)::bigint, "
                + "(extract(epoch FROM e.endtime) * 1000)::bigint FROM dispatch.admissions a "
                + "JOIN dispatch.partitions p ON p.id = a.partition_id JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                + "WHERE p.policy_name = ? AND e.jobexecutionid > ?", (c, st) -> {
                    st.setString(1, job);
                    st.setLong(2, since);
                }, rs -> runs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new long[] {rs.getLong(2), rs.getLong(3)}));
        double sum = 0;
        for (List<long[]> partition : runs.values()) {
            long from = partition.stream().mapToLong(r -> r[0]).min().orElseThrow();
            long to = partition.stream().mapToLong(r -> r[0]).max().orElseThrow();
            long busy = partition.stream().mapToLong(r -> Math.max(0, Math.min(r[1], to) - Math.max(r[0], from))).sum();
            sum += busy / (double) (cap * (to - from));
        }
        return sum / runs.size();
    }

    // ---------------------------------------------------------------- 9. soak

    /**
     * The soak (issues 14 and 34): {@code dispatch.test.bench.soak.jobs} no-op executions (default 200,000;
     * {@code -Dbench.soak.jobs=1000000} for the million) in 20 windows over 100 partitions with <b>the
     * default retention settings</b> (7 days for completed executions and admissions, a day for metrics),
     * then {@code dispatch.test.bench.soak.chunk-jobs} chunk executions. A retention of days never
     * prunes in a soak of minutes, so between windows <b>a simulated day passes with the node idle</b>:
     * the tick is off and nothing runs, every timestamp a retention reads is moved back by a day
     * ({@code job_execution.endtime}, {@code admissions.admitted_at}, the metrics' sample, minute and denial
     * times) — to the database, a day went by — and the sweeper's passes run until nothing more has
     * expired, as they would during that day. From the seventh window on each window's sweep prunes the
     * window of a week before: the repository holds about seven windows however long the soak runs. Per
     * window: executions completed per second (timed to JBeret's last end time), the heap after GC (which
     * holds what JBeret keeps in memory of the executions still retained) and the executions in JBeret's
     * repository (ADR 0028).
     */
    @Test
    @Order(10)
    void soak() {
        int total = Integer.getInteger("dispatch.test.bench.soak.jobs", 200_000);
        int windows = 20;
        int window = Math.max(1_000, total / windows);
        int chunkJobs = Integer.getInteger("dispatch.test.bench.soak.chunk-jobs", 20_000);
        int retainedDays = (int) java.time.Duration.ofSeconds(604_800).toDays(); // dispatch.execution-retention's default
        try {
            List<Double> rates = new ArrayList<>();
            List<Double> heaps = new ArrayList<>();
            long pruning = 0;
            for (int w = 1; w <= windows; w++) {
                double rate = soakWindow("bench-soak", window);
                long sweepStart = System.nanoTime();
                aDayPasses();
                for (int i = 0; i < 10_000 && sweeper.sweep() > 0; i++) {
                    // the sweeper's passes until nothing more has expired
                }
                pruning += System.nanoTime() - sweepStart;
                double heap = heapAfterGcMegabytes();
                rates.add(rate);
                heaps.add(heap);
                String name = String.format(java.util.Locale.ROOT, "soak window %d of %d (executions %d-%d, day %d)", w, windows,
                        (w - 1) * window + 1, w * window, w);
                RESULTS.add(name + ": executions completed", "executions/s", rate);
                RESULTS.add(name + ": heap after GC", "MB", heap);
                RESULTS.add(name + ": executions in JBeret's repository", "rows", count("SELECT count(*) FROM job_execution"));
            }
            String last = String.format(java.util.Locale.ROOT, "soak window %d of %d (executions %d-%d, day %d)", windows, windows,
                    (windows - 1) * window + 1, windows * window, windows);
            RESULTS.target(last + ": executions completed", "soak: last window's completion rate / first window's",
                    rates.get(rates.size() - 1) / rates.get(0), ">=", 0.9);
            // the steady state: the windows after the first prune (day 8 on), when the repository holds a week
            List<Double> steady = new ArrayList<>(heaps.subList(retainedDays, heaps.size()));
            java.util.Collections.sort(steady);
            double median = steady.get(steady.size() / 2);
            RESULTS.target(last + ": heap after GC", "soak: heap after GC at the end / the steady state's median",
                    heaps.get(heaps.size() - 1) / median, "<=", 1.2);
            RESULTS.target(last + ": executions in JBeret's repository", "soak: JBeret's executions at the end / a week of windows",
                    count("SELECT count(*) FROM job_execution") / (double) ((retainedDays + 1) * window), "<=", 1.0);
            RESULTS.add("soak: JBeret executions pruned by the retention", "executions",
                    count("SELECT executions_pruned FROM dispatch.pruning"));
            RESULTS.add("soak: the sweeps and simulated days, in all", "s", pruning / 1e9);
            double chunk = soakWindow("bench-soak-chunk", chunkJobs);
            String chunkName = "soak: " + chunkJobs + " chunk jobs after " + total + " executions: executions completed";
            RESULTS.add(chunkName, "executions/s", chunk);
            RESULTS.target(chunkName, "soak: chunk jobs through the policy / raw chunk start() (4 threads): completed per second",
                    chunk / RESULTS.value("raw JBeret start(), bench-chunk, 4 threads: executions completed"), ">=", 0.9);
        } finally {
            tick(false);
        }
    }

    /**
     * A simulated day with the node idle: every timestamp a retention compares with the database's clock
     * moved back by a day. Only those columns — the rest of a row is read by no sweep, and rewriting it
     * would only make the soak's own churn.
     */
    private void aDayPasses() {
        jdbc.update("UPDATE job_execution SET endtime = endtime - interval '1 day' WHERE endtime IS NOT NULL", (c, st) -> { });
        for (String shift : List.of(
                "UPDATE dispatch.admissions SET admitted_at = admitted_at - interval '1 day'",
                "UPDATE dispatch.tick_samples SET started_at = started_at - interval '1 day'",
                // keyed by (partition, minute): through a range nothing occupies, or a row moved onto its day-older
                // neighbour (a window that began in the minute the last one ended) before that one moved on
                "UPDATE dispatch.partition_minutes SET minute = minute - interval '1 day' - interval '1000 years'",
                "UPDATE dispatch.partition_minutes SET minute = minute + interval '1000 years'",
                "UPDATE dispatch.denial_history SET last_at = last_at - interval '1 day'")) {
            jdbc.update(shift, (c, st) -> { });
        }
    }

    /** Stages {@code n} jobs of {@code job} over 100 partitions, admits them, waits until they ended; @return completed/s. */
    private double soakWindow(String job, int n) {
        tick(false);
        for (int from = 0; from < n; from += 10_000) {
            dispatch.submitAll(job, jobs(Math.min(10_000, n - from), 100, "soak-"));
        }
        long since = maxExecutionId();
        long start = System.currentTimeMillis();
        tick(true);
        awaitCount(() -> executionsSince(true, job, since, n), n, Duration.ofMinutes(30), Duration.ofSeconds(1));
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = 'bench-soak'") == 0);
        return perMilli(n, start, lastMillis("endtime", job, since));
    }

    // ---------------------------------------------------------------- 4e. limits that compose (issue 38)

    /**
     * Admission through two named limits that never bind against one policy gate that never binds (ADR 0049): 20,000
     * no-op jobs over 100 partitions each, in interleaved rounds (gate, limits; limits, gate; …: 2, or
     * {@code -Dbench.server.jvm=-Ddispatch.test.bench.limits.rounds=N}), completions per second. What the limits' locks, counts and charges cost a job. Target ≥ 0.8.
     */
    @Test
    @Order(14)
    void admissionThroughNamedLimits() {
        java.util.Map<String, List<Double>> rates = new java.util.LinkedHashMap<>();
        int rounds = Integer.getInteger("dispatch.test.bench.limits.rounds", 2);
        for (int round = 0; round < rounds; round++) {
            // each policy first in every other round: neither always runs beside the other's leftovers
            for (String job : round % 2 == 0 ? List.of("bench-e2e-gate", "bench-e2e-limits") : List.of("bench-e2e-limits", "bench-e2e-gate")) {
                tick(false);
                for (int from = 0; from < 20_000; from += 10_000) {
                    dispatch.submitAll(job, jobs(10_000, 100, "lim" + round + "-"));
                }
                analyzeJBeret();
                analyzeEngine();
                Statements profile = Statements.start(jdbc);
                long since = maxExecutionId();
                long start = System.currentTimeMillis();
                tick(true);
                awaitCount(() -> executionsSince(true, job, since, 20_000), 20_000, Duration.ofMinutes(6), Duration.ofSeconds(1));
                rates.computeIfAbsent(job, k -> new ArrayList<>()).add(perMilli(20_000, start, lastMillis("endtime", job, since)));
                profile.write(benchDir().resolve("statements-" + job + "-round-" + (round + 1) + ".txt"), 20_000);
                tick(false);
            }
        }
        double gate = rates.get("bench-e2e-gate").stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double limits = rates.get("bench-e2e-limits").stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        RESULTS.add("admission through one policy gate, 20,000 jobs over 100 partitions (mean): executions completed",
                "executions/s", gate);
        RESULTS.add("admission through two named limits, 20,000 jobs over 100 partitions (mean): executions completed",
                "executions/s", limits);
        RESULTS.note("admission through one gate / two named limits, each round", rates.toString());
        RESULTS.target("admission through two named limits, 20,000 jobs over 100 partitions (mean): executions completed",
                "two named limits / one policy gate: completed per second", limits / gate, ">=", 0.8);
    }

    /**
     * Claim flatness for a policy fair by usage (ADR 0048) whose jobs carry time offsets (ADR 0046), half of each call
     * offset by 30 s: the claim reads each claimed partition's running usage, the take the offset order's index.
     * 1,000,000 staged in 100,000 partitions against 1,000 in 100. Target ≤ 1.5.
     */
    @Test
    @Order(15)
    void claimFlatnessWithUsageAndOffsets() throws Exception {
        double small = medianIteration("bench-flat-usage", 1_000, 100, "small-", () -> { });
        double large = medianIteration("bench-flat-usage", 1_000_000, 100_000, "large-", () -> { });
        RESULTS.add("tick iteration, fair by usage with offsets, 1,000 staged in 100 partitions (median)", "ms", small);
        RESULTS.add("tick iteration, fair by usage with offsets, 1,000,000 staged in 100,000 partitions (median)", "ms", large);
        RESULTS.target("tick iteration, fair by usage with offsets, 1,000,000 staged in 100,000 partitions (median)",
                "claim flatness, fair by usage with time offsets: 1M-backlog / 1k-backlog iteration time", large / small, "<=", 1.5);
    }

    /** Last: prints the table into the server log and the build output, and writes results.json. */
    @Test
    @Order(20)
    void resultsAreWritten() {
        RESULTS.note("database", Boolean.getBoolean("dispatch.test.pg.durable")
                ? "durable: fsync on, synchronous_commit on, full_page_writes on"
                : "zonky's defaults: fsync off, synchronous_commit off");
        RESULTS.write(benchDir());
        LOG.info(RESULTS.table());
        assertThat(benchDir().resolve("results.json")).exists();
    }
}
