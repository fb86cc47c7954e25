package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.staging.StagedJobRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/**
 * Staged jobs whose time has come, the tick's first step (ADR 0018): scheduled jobs promoted into their
 * partitions' waiting sets, waiting jobs aged, and restarts that bypass the gates found (the admission
 * takes each out, {@code admission.AdmissionTake}). Each statement
 * costs the number of rows due, never the number waiting for a later time.
 */
@ApplicationScoped
public class DueJobs {

    // Scheduled jobs whose time has come join their partitions' waiting sets (pending count, top priority);
    // a restart that bypasses the gates is left to the tick's bypass step (BYPASSED).
    private static final Sql PROMOTE = StagedJobRows.pastDue("due_at", "due", "s.id, s.partition_id, s.priority", "NOT bypass", """
            per AS (
                SELECT partition_id, count(*)::int AS n, max(priority) AS top FROM due GROUP BY partition_id),
            promoted AS (
                UPDATE dispatch.staged_jobs s SET due_at = NULL FROM due WHERE s.id = due.id RETURNING s.id)
            UPDATE dispatch.partitions p
               SET top_priority = CASE WHEN p.pending_count = 0 THEN per.top ELSE greatest(p.top_priority, per.top) END,
                   pending_count = p.pending_count + per.n,
                   scheduled_count = p.scheduled_count - per.n
              FROM per
             WHERE p.id = per.partition_id
            RETURNING per.n
            """);

    // Restarts that bypass the gates and are due: the oldest first, off staged_jobs_bypass_idx; for a node
    // that admits named shards, only those of its shards' partitions (and unsharded ones).
    private static final Sql BYPASSED = Sql.of("""
            SELECT s.id, s.partition_id, s.cost FROM dispatch.staged_jobs s
             WHERE s.bypass AND s.due_at <= statement_timestamp()
               AND (:shards::text[] IS NULL
                    OR EXISTS (SELECT 1 FROM dispatch.partitions p WHERE p.id = s.partition_id AND p.shard = ANY (:shards::text[])))
             ORDER BY s.due_at
             LIMIT :limit
            """);

    // Priority aging: rows whose next_age_at has passed gain their step for every period elapsed, up to
    // their cap (then they leave the aging index); their partitions' top_priority follows for waiting rows.
    private static final Sql AGE = StagedJobRows.pastDue("next_age_at", "aging",
            "s.id, 1 + floor(extract(epoch FROM clock_timestamp() - s.next_age_at) * 1000 / s.age_every_ms)::bigint AS steps",
            "true", """
            aged AS (
                UPDATE dispatch.staged_jobs s
                   SET priority = least(s.age_cap::bigint, s.priority + s.age_step::bigint * aging.steps)::int,
                       next_age_at = CASE WHEN s.priority + s.age_step::bigint * aging.steps >= s.age_cap THEN NULL
                                          ELSE s.next_age_at + make_interval(secs => s.age_every_ms * aging.steps / 1000.0) END
                  FROM aging
                 WHERE s.id = aging.id
                RETURNING s.partition_id, s.priority, s.due_at IS NULL AND s.parked_at IS NULL AS waiting),
            raised AS (
                UPDATE dispatch.partitions p SET top_priority = greatest(p.top_priority, per.top)
                  FROM (SELECT partition_id, max(priority) AS top FROM aged WHERE waiting GROUP BY partition_id) per
                 WHERE p.id = per.partition_id AND p.pending_count > 0)
            SELECT count(*) FROM aged
            """);

    /** These statements as they run, for tests that assert their plans. */
    public static final String PROMOTE_SQL = PROMOTE.jdbc();
    public static final String AGE_SQL = AGE.jdbc();
    public static final String BYPASSED_SQL = BYPASSED.jdbc();

    @Inject
    Jdbc jdbc;

    /** Raises the priority of up to {@code limit} waiting jobs whose aging step is due; @return how many. */
    public int agePriorities(int limit) {
        return jdbc.query(AGE, Params.of().integer("limit", limit), rs -> rs.getInt(1)).get(0);
    }

    /**
     * Up to {@code limit} due restarts that bypass the gates: oldest first.
     *
     * @param shards the shards whose partitions' restarts are wanted; null for every shard
     */
    public List<DueBypass> bypassedDue(int limit, List<String> shards) {
        return jdbc.query(BYPASSED, Params.of().texts("shards", shards).integer("limit", limit),
                rs -> new DueBypass(rs.getLong(1), rs.getLong(2), rs.getInt(3)));
    }

    /** Moves up to {@code limit} scheduled jobs whose time has come into their partitions' waiting sets; @return how many. */
    public int promoteDue(int limit) {
        return jdbc.query(PROMOTE, Params.of().integer("limit", limit), rs -> rs.getInt(1)).stream().mapToInt(Integer::intValue).sum();
    }
}
