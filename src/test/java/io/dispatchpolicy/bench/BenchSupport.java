package io.dispatchpolicy.bench;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.it.Params;
import io.dispatchpolicy.lifecycle.TickLoop;
import io.dispatchpolicy.tick.TickRunner;
import io.dispatchpolicy.upkeep.Sweeper;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobOperator;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

import static org.awaitility.Awaitility.await;

/**
 * What the benchmarks share, inside the server: the engine's beans and the database, counts off JBeret's
 * tables that do not load what they measure, the tick switched on and off, rates timed to JBeret's own
 * end times, fresh statistics before a timed case.
 */
abstract class BenchSupport {

    static final String COMPLETED_SINCE = "SELECT count(*) FROM job_execution e JOIN job_instance i "
            + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.jobexecutionid > ? AND e.batchstatus = 'COMPLETED'";
    static final String CREATED_SINCE = "SELECT count(*) FROM job_execution e JOIN job_instance i "
            + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.jobexecutionid > ?";


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

    long count(String sql, Object... args) {
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
    long lastMillis(String column, String job, long since) {
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
    long executionsSince(boolean completed, String job, long since, long target) {
        long upper = count("SELECT count(*) FROM job_execution WHERE jobexecutionid > ?"
                + (completed ? " AND batchstatus = 'COMPLETED'" : ""), since);
        return upper < target ? upper : count(completed ? COMPLETED_SINCE : CREATED_SINCE, job, since);
    }

    long maxExecutionId() {
        return count("SELECT coalesce(max(jobexecutionid), 0) FROM job_execution");
    }

    void tick(boolean on) {
        System.setProperty("dispatch.tick-enabled", Boolean.toString(on));
        if (!on) {
            await().atMost(Duration.ofSeconds(60)).during(Duration.ofMillis(1_500)).until(() -> !timer.isTicking());
        }
    }

    static long awaitCount(LongSupplier count, long target, Duration atMost) {
        return awaitCount(count, target, atMost, Duration.ofMillis(100));
    }

    /**
     * With a poll of its own: a completion rate timed to JBeret's end times needs no prompt poll, and a
     * count every 100 ms over a growing range cost the database 112–220 us a job while the governed
     * cases were timed (run 29).
     */
    static long awaitCount(LongSupplier count, long target, Duration atMost, Duration poll) {
        await().atMost(atMost).pollInterval(poll).until(() -> count.getAsLong() >= target);
        return System.nanoTime();
    }

    static double perMilli(long n, long startMillis, long endMillis) {
        return n / ((endMillis - startMillis) / 1e3);
    }

    static double perSecond(long n, long startNanos, long endNanos) {
        return n / ((endNanos - startNanos) / 1e9);
    }

    static List<Properties> jobs(int n, int partitions, String prefix) {
        List<Properties> jobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(Params.of("tenant", prefix + (i % partitions)));
        }
        return jobs;
    }

    /** Runs {@code n} calls split over {@code threads} threads; @return elapsed nanoseconds. */
    long parallel(int threads, int n, java.util.function.IntConsumer call) throws Exception {
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

    static double percentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }


    /**
     * Fresh statistics of JBeret's tables before a timed case. They grow by tens of thousands of rows a
     * minute, faster than autovacuum analyzes them; planned on stale statistics ("nearly empty"), the
     * harness's count joins JOB_INSTANCE to JOB_EXECUTION by a nested loop over JOB_EXECUTION, which has
     * no index on JOBINSTANCEID, and a poll took minutes (runs 7 and 8).
     */
    void analyzeJBeret() {
        jdbc.update("ANALYZE job_instance, job_execution", (c, st) -> { });
    }

    /**
     * Fresh statistics of the engine's tables before a timed end-to-end case, which has just staged up to
     * 10,000 new partitions within seconds. Without it the case measures autovacuum's delay, not the engine:
     * the connections' cached generic plans of the admission's lock and bookkeeping statements were made
     * when the table held 100 rows, and seq-scan the 10,000 until autovacuum's next analyze (up to its
     * one-minute nap) invalidates them (run 14, auto_explain: 0.39 x raw for 10,000 partitions).
     */
    void analyzeEngine() {
        jdbc.update("ANALYZE dispatch.partitions, dispatch.staged_jobs", (c, st) -> { });
    }


    /** One warm-up iteration of the node's tick, then 11 timed: @return their median, in milliseconds. */
    double medianIterationMillis() {
        ticks.iterate();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            long start = System.nanoTime();
            ticks.iterate();
            times.add(System.nanoTime() - start);
        }
        return percentile(times, 50) / 1e6;
    }

    /**
     * {@code workers} threads iterating the node's {@code TickRunner} side by side, as the
     * {@code dispatch.tick-workers} loops do (the node's own tick off), until {@code n} executions of
     * {@code job} after {@code since} exist or {@code atMost} has passed.
     */
    void admitByWorkers(int workers, String job, long since, int n, Duration atMost) throws Exception {
        long deadline = System.nanoTime() + atMost.toNanos();
        List<Callable<Void>> loops = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            loops.add(() -> {
                while (executionsSince(false, job, since, n) < n && System.nanoTime() < deadline) {
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
    }

    static double heapAfterGcMegabytes() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
    }

    static Path benchDir() {
        return Path.of(System.getProperty("dispatch.test.bench.dir", "target/bench"));
    }
}
