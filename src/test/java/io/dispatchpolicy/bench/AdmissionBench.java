package io.dispatchpolicy.bench;

import io.dispatchpolicy.it.Operators;
import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.it.Deployments;
import io.dispatchpolicy.it.Params;
import io.dispatchpolicy.lifecycle.TickLoop;
import io.dispatchpolicy.tick.TickRunner;
import io.dispatchpolicy.upkeep.Sweeper;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
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
class AdmissionBench {

    private static final Logger LOG = Logger.getLogger(AdmissionBench.class.getName());
    private static final BenchResults RESULTS = new BenchResults();
    private static final String COMPLETED_SINCE = "SELECT count(*) FROM job_execution e JOIN job_instance i "
            + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.jobexecutionid > ? AND e.batchstatus = 'COMPLETED'";
    private static final String CREATED_SINCE = "SELECT count(*) FROM job_execution e JOIN job_instance i "
            + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.jobexecutionid > ?";

    @Deployment
    static EnterpriseArchive deployment() {
        return Deployments.ear(true);
    }

    @Inject
    @Governed
    JobOperator governed;

    @Inject
    DispatchOperator dispatch;

    @Inject
    TickRunner ticks;

    @Inject
    TickLoop timer;

    @Inject
    PolicyControl control;

    @Inject
    Sweeper sweeper;

    @Inject
    Jdbc jdbc;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Resource(lookup = "java:jboss/UserTransaction")
    UserTransaction tx;

    // ---------------------------------------------------------------- helpers

    private long count(String sql, Object... args) {
        return jdbc.query(sql, (c, st) -> {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
        }, rs -> rs.getLong(1)).get(0);
    }

    /**
     * When the last execution of {@code job} after {@code since} was created or ended, by JBeret's own
     * record (epoch ms on this JVM's clock, as JBeret wrote it): an admission rate is timed to it, not to
     * the poll that noticed it — with half a million executions in the table a poll can lag by seconds.
     */
    private long lastMillis(String column, String job, long since) {
        return jdbc.query("SELECT max(e." + column + ") FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ? AND e.jobexecutionid > ?", (c, st) -> {
                    st.setString(1, job);
                    st.setLong(2, since);
                }, rs -> rs.getTimestamp(1).getTime()).get(0);
    }

    /**
     * The executions of {@code job} after {@code since} (with {@code completed}, those completed), exactly
     * once there are at least {@code target}; below it, a count that is never less than the exact one.
     * The polls must not load the database they measure: JBeret's tables have no index by job name, the
     * exact count (a join to JOB_INSTANCE) took 77 ms of a core per poll over 10,000 partitions (run 20),
     * while raw start()'s creation is timed without any poll running. So a poll counts the executions after
     * {@code since} off the primary key, whatever their job, and the exact count runs only once that
     * reaches the target.
     */
    private long executionsSince(boolean completed, String job, long since, long target) {
        long upper = count("SELECT count(*) FROM job_execution WHERE jobexecutionid > ?"
                + (completed ? " AND batchstatus = 'COMPLETED'" : ""), since);
        return upper < target ? upper : count(completed ? COMPLETED_SINCE : CREATED_SINCE, job, since);
    }

    private long maxExecutionId() {
        return count("SELECT coalesce(max(jobexecutionid), 0) FROM job_execution");
    }

    private void tick(boolean on) {
        System.setProperty("dispatch.tick-enabled", Boolean.toString(on));
        if (!on) {
            await().atMost(Duration.ofSeconds(60)).during(Duration.ofMillis(1_500)).until(() -> !timer.isTicking());
        }
    }

    private static long awaitCount(LongSupplier count, long target, Duration atMost) {
        return awaitCount(count, target, atMost, Duration.ofMillis(100));
    }

    /**
     * With a poll of its own: a completion rate timed to JBeret's end times needs no prompt poll, and a
     * count every 100 ms over a growing range cost the database 112–220 us a job while the governed
     * cases were timed (run 29).
     */
    private static long awaitCount(LongSupplier count, long target, Duration atMost, Duration poll) {
        await().atMost(atMost).pollInterval(poll).until(() -> count.getAsLong() >= target);
        return System.nanoTime();
    }

    private static double perMilli(long n, long startMillis, long endMillis) {
        return n / ((endMillis - startMillis) / 1e3);
    }

    private static double perSecond(long n, long startNanos, long endNanos) {
        return n / ((endNanos - startNanos) / 1e9);
    }

    private static List<Properties> jobs(int n, int partitions, String prefix) {
        List<Properties> jobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(Params.of("tenant", prefix + (i % partitions)));
        }
        return jobs;
    }

    /** Runs {@code n} calls split over {@code threads} threads; @return elapsed nanoseconds. */
    private long parallel(int threads, int n, java.util.function.IntConsumer call) throws Exception {
        List<Callable<Void>> work = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            // interleaved: at any moment the threads work on neighbouring indices (for staging: different
            // tenants), not on the same one in lockstep, which is what contiguous ranges of a multiple of
            // the tenant count made them do (benchmark run 10)
            work.add(() -> {
                for (int i = first; i < n; i += threads) {
                    call.accept(i);
                }
                return null;
            });
        }
        long start = System.nanoTime();
        for (Future<Void> f : executor.invokeAll(work)) {
            f.get();
        }
        return System.nanoTime() - start;
    }

    private static double percentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
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
        record Case(String job, int jobs, int partitions, boolean prioritized, String setting, int repeat) {
            Case(String job, int jobs, int partitions, boolean prioritized) {
                this(job, jobs, partitions, prioritized, null, 1);
            }

            String name() {
                return "admission end to end, " + job + ", " + jobs + " jobs over " + partitions + " partitions"
                        + (prioritized ? ", 10 % at priority 5" : "") + (setting == null ? "" : ", " + setting)
                        + (repeat > 1 ? " (" + repeat + ")" : "");
            }
        }
        int n = endToEndJobs();
        Case one = new Case("bench-e2e", n, 1, false);
        Case hundredCase = new Case("bench-e2e", n, 100, false);
        Case prioritizedCase = new Case("bench-e2e", n, 100, true);
        Case tenThousandCase = new Case("bench-e2e", n, 10_000, false);
        Case chunkCase = new Case("bench-e2e-chunk", chunkJobs(), 100, false);
        List<Case> cases = new ArrayList<>(List.of(one, hundredCase, prioritizedCase, tenThousandCase, chunkCase,
                new Case("bench-e2e", n, 100, false, "dispatch.node-threads=unlimited", 1)));
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
                    + (c.prioritized() ? "-prioritized" : "") + (c.setting() == null ? "" : "-" + c.setting().replaceAll("[^a-z0-9]+", "-") + "-" + c.repeat())
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
            long deadline = System.nanoTime() + Duration.ofMinutes(6).toNanos();
            List<Callable<Void>> loops = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                loops.add(() -> {
                    while (executionsSince(false, "bench-workers", since, 50_000) < 50_000 && System.nanoTime() < deadline) {
                        for (int i = 0; i < 20; i++) {
                            ticks.iterate();
                        }
                    }
                    return null;
                });
            }
            for (Future<Void> f : executor.invokeAll(loops)) {
                f.get();
            }
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
        tick(false);
        for (int from = 0; from < jobs; from += 10_000) {
            dispatch.submitAll("bench-flat", jobs(Math.min(10_000, jobs - from), partitions, prefix));
        }
        analyze();
        ticks.iterate(); // warm-up
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            long start = System.nanoTime();
            ticks.iterate();
            times.add(System.nanoTime() - start);
        }
        after.run();
        control.drain("bench-flat", Operators.ADMIN);
        return percentile(times, 50) / 1e6;
    }

    /**
     * Fresh statistics of JBeret's tables before a timed case. They grow by tens of thousands of rows a
     * minute, faster than autovacuum analyzes them; planned on stale statistics ("nearly empty"), the
     * harness's count joins JOB_INSTANCE to JOB_EXECUTION by a nested loop over JOB_EXECUTION, which has
     * no index on JOBINSTANCEID, and a poll took minutes (runs 7 and 8).
     */
    private void analyzeJBeret() {
        jdbc.update("ANALYZE job_instance, job_execution", (c, st) -> { });
    }

    private void analyze() throws Exception {
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("ANALYZE dispatch.partitions");
            s.execute("ANALYZE dispatch.staged_jobs");
        }
    }

    /**
     * Fresh statistics of the engine's tables before a timed end-to-end case, which has just staged up to
     * 10,000 new partitions within seconds. Without it the case measures autovacuum's delay, not the engine:
     * the connections' cached generic plans of the admission's lock and bookkeeping statements were made
     * when the table held 100 rows, and seq-scan the 10,000 until autovacuum's next analyze (up to its
     * one-minute nap) invalidates them (run 14, auto_explain: 0.39 x raw for 10,000 partitions).
     */
    private void analyzeEngine() {
        jdbc.update("ANALYZE dispatch.partitions, dispatch.staged_jobs", (c, st) -> { });
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
     * Issue 14's soak: {@code dispatch.test.bench.soak.jobs} no-op executions (default 200,000) in ten
     * windows, then {@code dispatch.test.bench.soak.chunk-jobs} chunk executions (default 20,000), through a
     * pass-through policy over 100 partitions with the retention on: 10 s, and a sweep after each window
     * (as {@code dispatch.sweep-interval} of one window would), so the repository holds about the last
     * window's executions however long the soak runs — what a server holds for its retention, scaled down
     * (with the defaults, 60 s sweeps and 60 s retention, a soak of a few minutes never reaches a steady
     * state: run 15a). Per window: the admission rate (admissions are the executions' creation, in the
     * same transaction; counted on the partitions, which the pruning does not touch), the heap after GC
     * (which holds what JBeret keeps in memory of the executions still retained) and the executions
     * JBeret's repository holds.
     */
    @Test
    @Order(10)
    void soak() {
        int total = Integer.getInteger("dispatch.test.bench.soak.jobs", 200_000);
        int window = Math.max(10_000, total / 10 / 10_000 * 10_000);
        int chunkJobs = Integer.getInteger("dispatch.test.bench.soak.chunk-jobs", 20_000);
        System.setProperty("dispatch.execution-retention", "10");
        System.setProperty("dispatch.failed-execution-retention", "10");
        try {
            List<Double> rates = new ArrayList<>();
            List<Double> heaps = new ArrayList<>();
            int windows = total / window;
            for (int w = 1; w <= windows; w++) {
                double rate = soakWindow("bench-soak", window);
                for (int i = 0; i < 1_000 && sweeper.sweep() > 0; i++) {
                    // the sweeper's passes until nothing more has expired
                }
                double heap = heapAfterGcMegabytes();
                rates.add(rate);
                heaps.add(heap);
                String name = String.format(java.util.Locale.ROOT, "soak window %d of %d (executions %d-%d)", w, windows,
                        (w - 1) * window + 1, w * window);
                RESULTS.add(name + ": executions created", "executions/s", rate);
                RESULTS.add(name + ": heap after GC", "MB", heap);
                RESULTS.add(name + ": executions in JBeret's repository", "rows", count("SELECT count(*) FROM job_execution"));
            }
            String last = String.format(java.util.Locale.ROOT, "soak window %d of %d (executions %d-%d)", windows, windows,
                    (windows - 1) * window + 1, windows * window);
            RESULTS.target(last + ": executions created", "soak: last window's rate / first window's",
                    rates.get(rates.size() - 1) / rates.get(0), ">=", 0.9);
            RESULTS.target(last + ": heap after GC", "soak: heap after GC, last window / first",
                    heaps.get(heaps.size() - 1) / heaps.get(0), "<=", 1.2);
            double chunk = soakWindow("bench-soak-chunk", chunkJobs);
            String chunkName = "soak: " + chunkJobs + " chunk jobs after " + total + " executions: executions created";
            RESULTS.add(chunkName, "executions/s", chunk);
            RESULTS.target(chunkName, "soak: chunk jobs through the policy / raw chunk start() (4 threads)",
                    chunk / RESULTS.value("raw JBeret start(), bench-chunk, 4 threads: executions created"), ">=", 0.9);
            RESULTS.add("soak: JBeret executions pruned by the retention", "executions",
                    count("SELECT executions_pruned FROM dispatch.pruning"));
        } finally {
            tick(false);
            System.clearProperty("dispatch.execution-retention");
            System.clearProperty("dispatch.failed-execution-retention");
        }
    }

    /** Stages {@code n} jobs of {@code job} over 100 partitions, admits them, waits until they ended; @return admissions/s. */
    private double soakWindow(String job, int n) {
        tick(false);
        for (int from = 0; from < n; from += 10_000) {
            dispatch.submitAll(job, jobs(Math.min(10_000, n - from), 100, "soak-"));
        }
        String admitted = "SELECT coalesce(sum(total_admitted), 0) FROM dispatch.partitions WHERE policy_name = 'bench-soak'";
        long before = count(admitted);
        long start = System.nanoTime();
        tick(true);
        long done = awaitCount(() -> count(admitted) - before, n, Duration.ofMinutes(15));
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = 'bench-soak'") == 0);
        return perSecond(n, start, done);
    }

    private static double heapAfterGcMegabytes() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
    }

    // ---------------------------------------------------------------- report

    private static Path benchDir() {
        return Path.of(System.getProperty("dispatch.test.bench.dir", "target/bench"));
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
