package io.dispatchpolicy.bench;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.it.Deployments;
import io.dispatchpolicy.it.Operators;
import io.dispatchpolicy.it.Params;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The limits benchmark (issue 34, deliverable 6; {@code ./mvnw -Pbench verify -Dbench.limits=true
 * -Dit.test=LimitsBench}, not in the default benchmark run): each path stretched towards its breaking
 * point — the rate at each size tried, what the size costs (heap, the tick's iteration, the database), and,
 * in docs/benchmarks.md, what gave first. Every case runs the pass-through policy {@code bench-workers}
 * (by tenant, no gates) and leaves nothing staged behind it. Sizes can be lowered for a quick look with
 * {@code -Dbench.server.jvm=-Ddispatch.test.bench.limits.scale=0.1}.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LimitsBench extends BenchSupport {

    @jakarta.inject.Inject
    io.dispatchpolicy.schedule.ScheduleWatchdog watchdog;

    private static final Logger LOG = Logger.getLogger(LimitsBench.class.getName());
    private static final BenchResults RESULTS = new BenchResults();
    private static final String JOB = "bench-workers";
    /** Jobs admitted and run at each size: the rate a size allows, over the same work everywhere. */
    private static final int MEASURED = 20_000;

    @Deployment
    static EnterpriseArchive deployment() {
        EnterpriseArchive ear = Deployments.ear(true);
        // the policies case: 1,000 policies, each with a job of its own
        JavaArchive tests = ear.getAsType(JavaArchive.class, "dispatch-tests.jar");
        tests.addAsServiceProvider(jakarta.enterprise.inject.spi.Extension.class, LimitsPolicies.class, LimitsSchedules.class);
        for (int i = 0; i < LimitsPolicies.COUNT; i++) {
            tests.addAsManifestResource(new StringAsset("""
                    <?xml version="1.0" encoding="UTF-8"?>
                    <job id="%s" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                        <step id="noop"><batchlet ref="noopBatchlet"/></step>
                    </job>
                    """.formatted(LimitsPolicies.name(i))), "batch-jobs/" + LimitsPolicies.name(i) + ".xml");
        }
        return ear;
    }

    /** After each case: a case can take long, and what the cases before it measured is kept if a later one breaks. */
    @AfterEach
    void written() {
        RESULTS.write(benchDir().resolve("limits"));
    }

    private static int scaled(int n) {
        return Math.max(1_000, (int) (n * Double.parseDouble(System.getProperty("dispatch.test.bench.limits.scale", "1"))));
    }

    // ---------------------------------------------------------------- partitions with a backlog

    /**
     * 10,000 to 1,000,000 partitions with two jobs waiting in each, staged through the API: the staging
     * rate at that size, then {@value #MEASURED} jobs admitted and run (completions per second), the
     * median tick iteration and the heap after GC with the backlog in place; the rest discarded by a drain.
     */
    @Test
    @Order(1)
    void partitionsWithABacklog() throws Exception {
        for (int partitions : new int[] {scaled(10_000), scaled(100_000), scaled(1_000_000)}) {
            String size = String.format(Locale.ROOT, "%,d partitions with a backlog (2 jobs each)", partitions);
            tick(false);
            long staged = System.nanoTime();
            for (int from = 0; from < 2 * partitions; from += 10_000) {
                List<Properties> call = new ArrayList<>();
                for (int i = from; i < Math.min(from + 10_000, 2 * partitions); i++) {
                    call.add(Params.of("tenant", "lp" + partitions + "-" + i % partitions)); // every partition, twice
                }
                dispatch.submitAll(JOB, call);
            }
            RESULTS.add("limits: " + size + ": staged", "jobs/s", perSecond(2L * partitions, staged, System.nanoTime()));
            measureAt(size, 2 * partitions);
        }
    }

    // ---------------------------------------------------------------- staged jobs

    /**
     * 1,000,000 and 10,000,000 jobs waiting in 100 partitions. The depth is made by copying staged rows in
     * SQL (staging 10 million through the API would take most of an hour, and its rate is measured
     * anyway): the staging rate of 10,000 more through the API at that depth, then the same measurements.
     */
    @Test
    @Order(2)
    void stagedJobs() throws Exception {
        for (int depth : new int[] {scaled(1_000_000), scaled(10_000_000)}) {
            String size = String.format(Locale.ROOT, "%,d staged jobs in 100 partitions", depth);
            tick(false);
            dispatch.submitAll(JOB, jobs(100, 100, "ls-"));
            long deepened = System.nanoTime();
            int perPartition = depth / 100 - 1;
            jdbc.update("""
                    WITH copies AS (
                        INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, submitted_by, priority)
                        SELECT s.partition_id, s.job_name, s.job_parameters, s.submitted_by, s.priority
                          FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id
                         CROSS JOIN generate_series(1, ?) g
                         WHERE p.policy_name = ? AND p.partition_key LIKE 'ls-%'
                        RETURNING partition_id)
                    UPDATE dispatch.partitions p SET pending_count = p.pending_count + c.n
                      FROM (SELECT partition_id, count(*) AS n FROM copies GROUP BY partition_id) c
                     WHERE p.id = c.partition_id
                    """, (c, st) -> {
                st.setInt(1, perPartition);
                st.setString(2, JOB);
            });
            RESULTS.add("limits: " + size + ": made in SQL", "s", (System.nanoTime() - deepened) / 1e9);
            long staged = System.nanoTime();
            dispatch.submitAll(JOB, jobs(10_000, 100, "ls-"));
            RESULTS.add("limits: " + size + ": 10,000 more staged through the API", "jobs/s", perSecond(10_000, staged, System.nanoTime()));
            RESULTS.add("limits: " + size + ": database size", "MB",
                    count("SELECT pg_database_size(current_database())") / 1e6);
            measureAt(size, depth + 10_000);
        }
    }

    // ---------------------------------------------------------------- job parameter size

    /**
     * Parameters of 10 characters up to JBeret's limit (its JOBPARAMETERS column holds 3,000 characters,
     * the engine keeps room for the submission id): 10,000 jobs staged through the API and run, at each size;
     * one character more is refused at submission, with the limit in the message.
     */
    @Test
    @Order(3)
    void parameterSize() throws Exception {
        // JBeret stores "key = value" lines: each parameter takes its key, its value and 4 characters; the
        // engine keeps the room of its own dispatch.submissionId line (up to 19 digits)
        int largest = io.dispatchpolicy.domain.model.JobParameters.MAX_STORED_CHARS - ("dispatch.submissionId".length() + 19 + 4)
                - ("tenant".length() + "lz-0000".length() + 4) - ("payload".length() + 4);
        for (int chars : new int[] {10, 100, 1_000, largest}) {
            String size = String.format(Locale.ROOT, "parameters of %,d characters", chars);
            String payload = "x".repeat(chars);
            List<Properties> jobs = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                jobs.add(Params.of("tenant", "lz-" + String.format(Locale.ROOT, "%04d", i % 100), "payload", payload));
            }
            tick(false);
            long staged = System.nanoTime();
            dispatch.submitAll(JOB, jobs);
            RESULTS.add("limits: " + size + ": staged", "jobs/s", perSecond(10_000, staged, System.nanoTime()));
            long since = maxExecutionId();
            long start = System.currentTimeMillis();
            tick(true);
            awaitCount(() -> executionsSince(true, JOB, since, 10_000), 10_000, Duration.ofMinutes(10), Duration.ofSeconds(1));
            RESULTS.add("limits: " + size + ": completed", "executions/s", perMilli(10_000, start, lastMillis("endtime", JOB, since)));
            tick(false);
        }
        Properties tooLong = Params.of("tenant", "lz-0000", "payload", "x".repeat(largest + 1));
        assertThatThrownBy(() -> dispatch.submit(JOB, tooLong)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("the limit is");
    }

    // ---------------------------------------------------------------- tick workers

    /**
     * 1 to 16 tick workers side by side, each iterating as the node's tick loops do, over 20,000 jobs in
     * 1,000 partitions: executions created per second (admission alone; the node limit off so the pool's
     * threads do not bound it) and completed.
     */
    @Test
    @Order(4)
    void tickWorkers() throws Exception {
        System.setProperty("dispatch.node-threads", "unlimited");
        try {
            for (int workers : new int[] {1, 2, 4, 8, 16}) {
                tick(false);
                int n = scaled(MEASURED);
                for (int from = 0; from < n; from += 10_000) {
                    dispatch.submitAll(JOB, jobs(Math.min(10_000, n - from), 1_000, "lw" + workers + "-"));
                }
                analyzeEngine();
                analyzeJBeret();
                long since = maxExecutionId();
                long start = System.currentTimeMillis();
                admitByWorkers(workers, JOB, since, n, Duration.ofMinutes(10));
                awaitCount(() -> executionsSince(true, JOB, since, n), n, Duration.ofMinutes(10), Duration.ofSeconds(1));
                String size = workers + " tick worker" + (workers > 1 ? "s" : "");
                RESULTS.add("limits: " + size + ": created", "executions/s", perMilli(n, start, lastMillis("createtime", JOB, since)));
                RESULTS.add("limits: " + size + ": completed", "executions/s", perMilli(n, start, lastMillis("endtime", JOB, since)));
            }
        } finally {
            System.clearProperty("dispatch.node-threads");
        }
    }

    // ---------------------------------------------------------------- policies

    /**
     * {@value LimitsPolicies#COUNT} policies declared (all the time this deployment runs: every case above
     * ran beside them), 10,000 jobs over 10 partitions of each: completions per second, against the same
     * 10,000 jobs in 10,000 partitions of one policy, measured right before; the tick's iteration with
     * every policy waiting.
     */
    @Test
    @Order(5)
    void policies() throws Exception {
        int n = 10 * LimitsPolicies.COUNT;
        tick(false);
        dispatch.submitAll(JOB, jobs(n, n, "lone-"));
        long since = maxExecutionId();
        long start = System.currentTimeMillis();
        tick(true);
        awaitCount(() -> executionsSince(true, JOB, since, n), n, Duration.ofMinutes(10), Duration.ofSeconds(1));
        tick(false);
        RESULTS.add("limits: 1 policy, 10,000 jobs in 10,000 partitions: completed", "executions/s",
                perMilli(n, start, lastMillis("endtime", JOB, since)));

        for (int i = 0; i < LimitsPolicies.COUNT; i++) {
            dispatch.submitAll(LimitsPolicies.name(i), jobs(10, 10, "lpol-"));
        }
        analyzeEngine();
        RESULTS.add("limits: 1,000 policies waiting: tick iteration (median)", "ms", medianIterationMillis());
        long first = maxExecutionId();
        long begun = System.currentTimeMillis();
        tick(true);
        await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(1)).until(() -> count(
                "SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                        + "WHERE p.policy_name LIKE 'bench-lp-%'") == 0 && count("SELECT count(*) FROM dispatch.inflight_jobs") == 0);
        tick(false);
        long last = count("SELECT (extract(epoch FROM max(endtime)) * 1000)::bigint FROM job_execution WHERE jobexecutionid > ?", first);
        // the jobs admitted after the timed iterations (those admitted a few during them)
        long ran = count("SELECT count(*) FROM job_execution WHERE jobexecutionid > ? AND batchstatus = 'COMPLETED'", first);
        RESULTS.add("limits: 1,000 policies, 10,000 jobs in 10 partitions of each: completed", "executions/s",
                ran / ((last - begun) / 1e3));
        RESULTS.add("limits: 1,000 policies declared: heap after GC", "MB", heapAfterGcMegabytes());
    }

    // ---------------------------------------------------------------- schedules

    /**
     * With {@code dispatch.test.bench.limits.schedules} schedules declared (none unless set on the server):
     * every one has its live future occurrence staged (the watchdog's first pass, one second after boot,
     * stages them: awaited here), the time of a watchdog pass over all of them (each pass reads every
     * declaration again, so a live change applies), the heap after GC with them in place.
     */
    @Test
    @Order(6)
    void schedules() throws Exception {
        int n = LimitsSchedules.count();
        if (n == 0) {
            RESULTS.note("schedules", "not measured: set -Dbench.server.jvm=-Ddispatch.test.bench.limits.schedules=N");
            return;
        }
        String futures = "SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "JOIN dispatch.staged_jobs j ON j.id = o.submission_id WHERE s.name LIKE 'bench-ls-%' AND o.state = 'future'";
        await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofSeconds(5)).until(() -> count(futures) >= n);
        assertThat(count(futures)).as("one live future per schedule").isEqualTo(n);
        String size = String.format(Locale.ROOT, "%,d schedules", n);
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long began = System.nanoTime();
            watchdog.pass();
            times.add(System.nanoTime() - began);
        }
        RESULTS.add("limits: " + size + ": watchdog pass (median of 3)", "ms", percentile(times, 50) / 1e6);
        RESULTS.add("limits: " + size + ": heap after GC", "MB", heapAfterGcMegabytes());
        assertThat(count(futures)).as("the passes staged nothing twice").isEqualTo(n);
    }

    /** Last: the table into the server log and target/bench/limits/results.json. */
    @Test
    @Order(20)
    void resultsAreWritten() {
        RESULTS.write(benchDir().resolve("limits"));
        LOG.info(RESULTS.table());
        assertThat(benchDir().resolve("limits").resolve("results.json")).exists();
    }

    /**
     * With the backlog of a size in place: the median of 11 tick iterations (each claims its batch of
     * partitions and admits), the heap after GC, {@value #MEASURED} jobs admitted and run by the tick loops
     * (completed per second), then the rest discarded by the policy's drain (timed too: an operator's
     * drain of that backlog).
     */
    private void measureAt(String size, int backlog) throws Exception {
        int measured = Math.min(MEASURED, backlog);
        analyzeEngine();
        analyzeJBeret();
        long before = maxExecutionId();
        RESULTS.add("limits: " + size + ": tick iteration (median)", "ms", medianIterationMillis());
        RESULTS.add("limits: " + size + ": heap after GC", "MB", heapAfterGcMegabytes());
        long since = maxExecutionId();
        // what the timed iterations admitted is not part of the rate: the jobs admitted after them are
        int rest = measured - (int) count(CREATED_SINCE, JOB, before);
        long start = System.currentTimeMillis();
        tick(true);
        awaitCount(() -> executionsSince(true, JOB, since, rest), rest, Duration.ofMinutes(15), Duration.ofSeconds(1));
        tick(false);
        RESULTS.add("limits: " + size + ": completed", "executions/s", perMilli(rest, start, lastMillis("endtime", JOB, since)));
        long drained = System.nanoTime();
        try {
            int discarded = control.drain(JOB, Operators.ADMIN);
            RESULTS.add("limits: " + size + ": drain of the rest (" + discarded + " jobs)", "s", (System.nanoTime() - drained) / 1e9);
        } catch (RuntimeException e) {
            // a breaking point of its own (one statement in one transaction): recorded, and the harness clears
            // the backlog itself, a partition at a time, so the next case starts from nothing
            RESULTS.note("limits: " + size + ": drain", "failed after " + (System.nanoTime() - drained) / 1_000_000_000 + " s: " + e);
            LOG.warning(() -> size + ": the drain failed: " + e);
            jdbc.update("""
                    WITH gone AS (DELETE FROM dispatch.staged_jobs s USING dispatch.partitions p
                                   WHERE s.partition_id = p.id AND p.policy_name = ? RETURNING s.partition_id)
                    UPDATE dispatch.partitions p SET pending_count = 0 WHERE p.policy_name = ?
                    """, (c, st) -> {
                st.setString(1, JOB);
                st.setString(2, JOB);
            });
        }
        assertThat(count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ?", JOB)).as("staged after the drain").isZero();
    }
}
