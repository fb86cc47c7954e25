package io.dispatchpolicy.running;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** What the execution watchdog reads of this node's running executions, and the progress it records (ADR 0030). */
@ApplicationScoped
public class RunningRepository {

    // This node's executions (the node passes those its runners hold now, queued or running: a handful of
    // index lookups) that have a timeout, or a stop another node asked for and this one has not delivered
    // yet (ADR 0031). Progress is a mark of
    // JBeret's rows of the execution: every checkpoint rewrites its step's (or partition's) row, which
    // gives the row a new version (xmin), and a new step adds a row — so the mark changes exactly when
    // a checkpoint was written or a step began. It is compared with the last one seen; a new one is
    // stored with the database's time, and a mark unchanged for longer than the progress timeout is a
    // stall. All times are the database's: a node's clock skew never times out a job early.
    private static final Sql WATCH = Sql.of("""
            WITH mine AS MATERIALIZED (
                SELECT f.execution_id, f.started_at, f.run_timeout_ms, f.progress_timeout_ms, f.progress_mark, f.progress_at,
                       f.timed_out_at, f.stop_requested_at IS NOT NULL AND f.stop_delivered_at IS NULL AS stop_pending,
                       CASE WHEN f.progress_timeout_ms IS NOT NULL AND f.timed_out_at IS NULL AND f.started_at IS NOT NULL THEN
                            (SELECT coalesce(sum(s.xmin::text::bigint), 0) + count(*) FROM step_execution s
                              WHERE s.jobexecutionid = f.execution_id)
                          + (SELECT coalesce(sum(pe.xmin::text::bigint), 0) FROM partition_execution pe
                               JOIN step_execution s ON s.stepexecutionid = pe.stepexecutionid
                              WHERE s.jobexecutionid = f.execution_id)
                       END AS mark
                  FROM dispatch.inflight_jobs f
                 WHERE f.execution_id = ANY (:executions::bigint[]) AND f.node_id = :node
                   AND ((f.started_at IS NOT NULL AND (f.run_timeout_ms IS NOT NULL OR f.progress_timeout_ms IS NOT NULL))
                        OR (f.stop_requested_at IS NOT NULL AND f.stop_delivered_at IS NULL))),
            moved AS (
                UPDATE dispatch.inflight_jobs f SET progress_mark = m.mark, progress_at = clock_timestamp()
                  FROM mine m
                 WHERE f.execution_id = m.execution_id AND m.mark IS NOT NULL AND m.mark IS DISTINCT FROM m.progress_mark
                RETURNING f.execution_id)
            SELECT execution_id, timed_out, since_timed_out_ms, overran, stalled, run_timeout_ms, progress_timeout_ms, stop_pending
              FROM (SELECT m.execution_id, m.timed_out_at IS NOT NULL AS timed_out, m.stop_pending,
                           coalesce(extract(epoch FROM clock_timestamp() - m.timed_out_at) * 1000, 0)::bigint AS since_timed_out_ms,
                           coalesce(m.run_timeout_ms IS NOT NULL
                               AND clock_timestamp() >= m.started_at + m.run_timeout_ms * interval '1 millisecond', false) AS overran,
                           m.mark IS NOT NULL AND m.mark = m.progress_mark
                               AND clock_timestamp() >= m.progress_at + m.progress_timeout_ms * interval '1 millisecond' AS stalled,
                           m.run_timeout_ms, m.progress_timeout_ms
                      FROM mine m) w
             WHERE timed_out OR overran OR stalled OR stop_pending
            """);

    @Inject
    Jdbc jdbc;

    /**
     * Records the progress of this node's executions among {@code executions} that have a timeout, and returns
     * those past one or timed out already, and those with a stop asked for elsewhere and not yet delivered.
     */
    public List<Watched> watch(UUID node, Collection<Long> executions) {
        return jdbc.query(WATCH, Params.of().longs("executions", List.copyOf(executions)).uuid("node", node),
                rs -> new Watched(rs.getLong(1), rs.getBoolean(2), rs.getLong(3), rs.getBoolean(4), rs.getBoolean(5),
                        rs.getObject(6, Long.class), rs.getObject(7, Long.class), rs.getBoolean(8)));
    }
}
