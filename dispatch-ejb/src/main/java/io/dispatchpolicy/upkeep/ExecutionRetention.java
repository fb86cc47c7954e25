package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.infrastructure.jberet.JBeretCache;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Deletes JBeret's finished job instances past their retention (ADR 0015), a window of instances at a
 * time in id order (ids grow with time, so the oldest come first): an instance goes, with its executions,
 * their steps and partitions, and the engine's submission records of those executions, when its last
 * execution ended longer ago than the retention of its status (COMPLETED, or any other end), no execution
 * of it is still running, and nothing may still restart it — a staged retry, a dead job an operator may
 * retry, an in-flight row.
 */
@ApplicationScoped
public class ExecutionRetention {

    /** Instances read per statement: bounds one statement's work whatever the repository holds. */
    public static final int WINDOW = 5_000;

    // scanned: the window. latest: each instance's newest execution. doomed: the instances to delete. The
    // deletes run children first; JBeret's foreign keys (cascading or not) are checked at the statement's
    // end, when every child is gone. young: the window reached instances created after the shorter
    // retention, which nothing can have expired past: the next pass starts again from the oldest.
    private static final Sql PRUNE = Sql.of("""
            WITH scanned AS MATERIALIZED (
                SELECT jobinstanceid FROM job_instance WHERE jobinstanceid > :afterInstance ORDER BY jobinstanceid LIMIT :window),
            latest AS MATERIALIZED (
                SELECT DISTINCT ON (e.jobinstanceid) e.jobinstanceid, e.batchstatus, e.endtime
                  FROM job_execution e JOIN scanned s ON s.jobinstanceid = e.jobinstanceid
                 ORDER BY e.jobinstanceid, e.jobexecutionid DESC),
            doomed AS MATERIALIZED (
                SELECT l.jobinstanceid FROM latest l
                 WHERE l.endtime < clock_timestamp() - make_interval(secs => CASE WHEN l.batchstatus = 'COMPLETED'
                                                                                  THEN :completedSeconds::double precision
                                                                                  ELSE :failedSeconds::double precision END)
                   AND l.batchstatus IN ('COMPLETED', 'FAILED', 'STOPPED', 'ABANDONED')
                   AND NOT EXISTS (
                       SELECT 1 FROM job_execution e
                        WHERE e.jobinstanceid = l.jobinstanceid
                          AND (e.endtime IS NULL OR e.batchstatus NOT IN ('COMPLETED', 'FAILED', 'STOPPED', 'ABANDONED')
                               OR EXISTS (SELECT 1 FROM dispatch.staged_jobs r WHERE r.restart_of = e.jobexecutionid)
                               OR EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.execution_id = e.jobexecutionid)
                               OR EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.execution_id = e.jobexecutionid)))),
            steps AS MATERIALIZED (
                SELECT st.stepexecutionid FROM step_execution st
                  JOIN job_execution e ON e.jobexecutionid = st.jobexecutionid
                  JOIN doomed d ON d.jobinstanceid = e.jobinstanceid),
            gone_partitions AS (
                DELETE FROM partition_execution p USING steps WHERE p.stepexecutionid = steps.stepexecutionid),
            gone_steps AS (
                DELETE FROM step_execution st USING steps WHERE st.stepexecutionid = steps.stepexecutionid),
            gone_executions AS (
                DELETE FROM job_execution e USING doomed d WHERE e.jobinstanceid = d.jobinstanceid RETURNING e.jobexecutionid),
            gone_admissions AS (
                DELETE FROM dispatch.admissions a USING gone_executions g WHERE a.execution_id = g.jobexecutionid),
            gone_instances AS (
                DELETE FROM job_instance i USING doomed d WHERE i.jobinstanceid = d.jobinstanceid RETURNING i.jobinstanceid),
            counts AS (
                SELECT (SELECT count(*) FROM gone_instances) AS instances, (SELECT count(*) FROM gone_executions) AS executions),
            counted AS (
                UPDATE dispatch.pruning
                   SET instances_pruned = instances_pruned + counts.instances,
                       executions_pruned = executions_pruned + counts.executions,
                       last_pruned_at = CASE WHEN counts.instances > 0 THEN clock_timestamp() ELSE last_pruned_at END
                  FROM counts
                 WHERE id = 1)
            SELECT counts.instances, counts.executions, (SELECT max(jobinstanceid) FROM scanned), (SELECT count(*) FROM scanned),
                   coalesce((SELECT min(e.createtime) FROM job_execution e
                              WHERE e.jobinstanceid = (SELECT max(jobinstanceid) FROM scanned))
                            >= clock_timestamp() - make_interval(secs => least(:completedSeconds::double precision, :failedSeconds::double precision)), false),
                   (SELECT array_agg(jobexecutionid) FROM gone_executions), (SELECT array_agg(jobinstanceid) FROM gone_instances)
              FROM counts
            """);

    private static final Sql TOTALS = Sql.of("""
            SELECT p.instances_pruned, p.executions_pruned, p.last_pruned_at,
                   (SELECT e.createtime FROM job_execution e ORDER BY e.jobexecutionid LIMIT 1)
              FROM dispatch.pruning p WHERE p.id = 1
            """);

    @Inject
    Jdbc jdbc;

    @Inject
    JobRuntime runtime;

    /**
     * Deletes what has expired among the {@link #WINDOW} instances after {@code afterInstanceId}.
     *
     * @param completed retention of an instance whose last execution COMPLETED; empty: kept forever
     * @param failed    retention of one whose last execution ended otherwise; empty: kept forever
     */
    public Pass prune(long afterInstanceId, Optional<Duration> completed, Optional<Duration> failed) {
        Set<Long> executions = new HashSet<>();
        List<Long> instances = new ArrayList<>();
        Params params = Params.of().bigint("afterInstance", afterInstanceId).integer("window", WINDOW)
                .float8("completedSeconds", seconds(completed)).float8("failedSeconds", seconds(failed));
        Pass pass = jdbc.query(PRUNE, params, rs -> {
            addAll(rs.getArray(6), executions);
            addAll(rs.getArray(7), instances);
            return new Pass(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getInt(4), rs.getBoolean(5));
        }).get(0);
        forget(executions, instances);
        return pass;
    }

    /**
     * Drops what was just deleted from JBeret's in-memory repository too. JBeret keeps every execution and
     * instance it created or read in soft-referenced maps, which a collection clears only under memory
     * pressure: without this a server that runs millions of jobs holds them all until the heap is nearly
     * full, and every full collection walks them. A pass that rolls back has evicted nothing JBeret cannot
     * read again from its tables.
     */
    private void forget(Set<Long> executions, List<Long> instances) {
        if (!executions.isEmpty() || !instances.isEmpty()) {
            JBeretCache.forget(runtime.environment().getJobRepository(), executions, instances);
        }
    }

    private static void addAll(java.sql.Array array, java.util.Collection<Long> into) throws java.sql.SQLException {
        if (array != null) {
            for (Object id : (Object[]) array.getArray()) {
                into.add(((Number) id).longValue());
            }
        }
    }

    /** What has been pruned since the engine was installed, and the oldest execution kept. */
    public Totals totals() {
        return jdbc.query(TOTALS, Params.of(), rs -> new Totals(rs.getLong(1), rs.getLong(2),
                Jdbc.instant(rs.getTimestamp(3)), Jdbc.instant(rs.getTimestamp(4)))).get(0);
    }

    /** A retention in seconds, or null (SQL NULL) when kept forever. */
    private static Double seconds(Optional<Duration> retention) {
        return retention.map(r -> r.toMillis() / 1000.0).orElse(null);
    }

    /**
     * One statement's work.
     *
     * @param lastScanned the highest instance id read (0 when none)
     * @param scanned     instances read: fewer than {@link #WINDOW} when the window reached the newest
     * @param young       the window reached instances too young to have expired
     */
    public record Pass(long instances, long executions, long lastScanned, int scanned, boolean young) {

        /** Where the next pass starts: after this window, or from the oldest again once it reached the young end. */
        public long nextAfter() {
            return scanned < WINDOW || young ? 0 : lastScanned;
        }
    }

    /**
     * @param oldestKept when the oldest execution still in the repository was created; null when none is
     */
    public record Totals(long instancesPruned, long executionsPruned, Instant lastPrunedAt, Instant oldestKept) {
    }
}
