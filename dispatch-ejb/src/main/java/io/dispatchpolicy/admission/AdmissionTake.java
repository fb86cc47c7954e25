package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.staging.StagedJobRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admission's side of staging (ADR 0018): the next jobs taken out of partitions the admission
 * transaction has locked, a due restart that bypasses the gates taken out (or turned back into an
 * ordinary waiting job when JBeret refuses it), and a failed admission counted against a job (parked at
 * the limit). Staging puts jobs in ({@code staging.StagingRepository}); the tick's due-jobs step moves
 * them in time ({@code tick.DueJobs}).
 */
@ApplicationScoped
public class AdmissionTake {

    // The next jobs of one partition: highest priority first, then the earliest ordered (submitted, moved by
    // its priority offset: ADR 0046), off the top of staged_jobs_admit_idx (partition_id, priority DESC,
    // ordered_at, id), so O(batch). SKIP LOCKED: a row another transaction is taking is not waited for.
    // MATERIALIZED: the pick runs exactly once. As an IN (subquery) the planner may re-run it for each
    // outer row, and each re-run skips the rows this very statement has just deleted and picks the next
    // ones: with a large table the DELETE then took more rows than the LIMIT, past every gate.
    // The next jobs of one or several partitions (a group admitted together, ADR 0016), each up to its
    // own limit, off the top of the admit index: one round trip whatever the group's size.
    // = ANY(ARRAY(…)): the picked ids are deleted through the primary key. Joined as a table (USING picked)
    // the planner guessed 30 rows a partition, and for a group of 20 partitions hashed the whole staged
    // table to find 20 rows — a sequential scan of every waiting job per take (run 31, docs/benchmarks.md).
    // A job takes its cost in slots (ADR 0035): each partition's jobs are taken in that same order while
    // their costs added up stay within its slots, and no further: the first job that does not fit stops
    // the partition (a big job at the head is never overtaken by the small ones behind it). The window
    // runs over the rows already picked, after their locks: no more than the partition's slots, since a
    // job costs at least one (each row picked is locked, a write: picking a batch to take two was what
    // made the first cut of this statement slow enough to skew the lanes' shares, LanesIT).
    private static final Sql TAKE = Sql.template("""
            WITH wanted AS (
                SELECT * FROM unnest(:partitions::bigint[], :limits::int[], :slots::int[]) AS w(partition_id, lim, slots)),
            candidates AS MATERIALIZED (
                SELECT w.partition_id, w.slots, t.id, t.priority, t.ordered_at, t.cost FROM wanted w CROSS JOIN LATERAL (
                    SELECT id, priority, ordered_at, cost FROM dispatch.staged_jobs
                     WHERE partition_id = w.partition_id AND parked_at IS NULL AND due_at IS NULL
                     ORDER BY priority DESC, ordered_at, id
                     LIMIT least(w.lim, w.slots)
                       FOR UPDATE SKIP LOCKED) t),
            picked AS MATERIALIZED (
                SELECT id FROM (SELECT id, slots, sum(cost) OVER (PARTITION BY partition_id ORDER BY priority DESC, ordered_at, id) AS upto
                                  FROM candidates) c
                 WHERE upto <= slots)
            DELETE FROM dispatch.staged_jobs s WHERE s.id = ANY (ARRAY(SELECT id FROM picked))
            RETURNING {{columns}}, s.partition_id
            """).with("columns", StagedJobRows.columns("s."));

    // The cost of the job at the head of a partition's waiting set: asked only when a take found nothing
    // that fits, to say why (the partition row is locked, so the head cannot change meanwhile).
    private static final Sql HEAD_COST = Sql.of("""
            SELECT cost FROM dispatch.staged_jobs
             WHERE partition_id = :partition AND parked_at IS NULL AND due_at IS NULL
             ORDER BY priority DESC, ordered_at, id
             LIMIT 1
            """);

    // One more failed admission; at the limit the job is parked: out of the partition's pending count
    // (so the rest of the partition flows and the claim stops returning to it) but kept, with its error.
    private static final Sql FAILED_ATTEMPT = Sql.template("""
            WITH job AS (
                UPDATE dispatch.staged_jobs
                   SET admit_attempts = admit_attempts + 1,
                       last_error = left(:error, 2000),
                       parked_at = CASE WHEN admit_attempts + 1 >= :maxAttempts THEN clock_timestamp() END
                 WHERE id = :submission AND parked_at IS NULL
                RETURNING partition_id, parked_at IS NOT NULL AS parked)
            UPDATE dispatch.partitions p
               SET pending_count = p.pending_count - 1, parked_count = p.parked_count + 1,
                   top_priority = {{topPriority}}
              FROM job
             WHERE p.id = job.partition_id AND job.parked
            RETURNING p.id
            """).with("topPriority", StagedJobRows.topPriorityOf("p.id"));

    // One of them taken out of staging for its admission (the caller holds its partition's lock).
    private static final Sql TAKE_BYPASSED = Sql.template("""
            WITH taken AS (
                DELETE FROM dispatch.staged_jobs
                 WHERE id = (SELECT id FROM dispatch.staged_jobs WHERE id = :submission AND partition_id = :partition AND bypass
                                FOR UPDATE SKIP LOCKED)
                RETURNING {{columns}}),
            counted AS (
                UPDATE dispatch.partitions SET scheduled_count = scheduled_count - 1
                 WHERE id = :partition AND EXISTS (SELECT 1 FROM taken))
            SELECT * FROM taken
            """).with("columns", StagedJobRows.columns(""));

    // A bypassing restart JBeret refused: it joins the partition's waiting set as an ordinary restart,
    // so the admission path counts its failed attempts and parks it at the limit, like any job.
    private static final Sql BYPASS_REFUSED = Sql.of("""
            WITH job AS (
                UPDATE dispatch.staged_jobs
                   SET bypass = false, due_at = NULL, admit_attempts = admit_attempts + 1, last_error = left(:error, 2000)
                 WHERE id = :submission AND bypass
                RETURNING partition_id, priority)
            UPDATE dispatch.partitions p
               SET top_priority = CASE WHEN p.pending_count = 0 THEN job.priority ELSE greatest(p.top_priority, job.priority) END,
                   pending_count = p.pending_count + 1, scheduled_count = p.scheduled_count - 1
              FROM job
             WHERE p.id = job.partition_id
            """);

    /** TAKE as it runs, for tests that assert its plan. */
    public static final String TAKE_SQL = TAKE.jdbc();

    @Inject
    Jdbc jdbc;

    /** Removes and returns up to {@code limit} of the partition's next staged jobs: highest priority, then earliest ordered, first. */
    public List<StagedJob> take(long partitionId, int limit) {
        return take(Map.of(partitionId, new Want(limit, Integer.MAX_VALUE))).getOrDefault(partitionId, List.of());
    }

    /**
     * What a take may remove from one partition: at most {@code jobs} jobs, whose costs add up to at most
     * {@code slots} (ADR 0035).
     */
    public record Want(int jobs, int slots) {
    }

    /**
     * Takes the next jobs of partitions this transaction has locked, each as far as its {@link Want} allows.
     *
     * @return per partition that had any, its jobs in admission order ({@link StagedJob#ADMISSION_ORDER})
     */
    public Map<Long, List<StagedJob>> take(Map<Long, Want> wants) {
        List<Long> ids = new ArrayList<>(wants.keySet());
        Map<Long, List<StagedJob>> taken = new HashMap<>();
        jdbc.query(TAKE, Params.of().longs("partitions", ids).ints("limits", ids.stream().map(id -> wants.get(id).jobs()).toList())
                        .ints("slots", ids.stream().map(id -> wants.get(id).slots()).toList()),
                rs -> Map.entry(rs.getLong(StagedJobRows.COLUMN_COUNT + 1), StagedJobRows.read(rs)))
                .forEach(e -> taken.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
        taken.values().forEach(jobs -> jobs.sort(StagedJob.ADMISSION_ORDER));
        return taken;
    }

    /** The cost of the next job of a partition this transaction has locked; empty when none waits. */
    public java.util.OptionalInt headCost(long partitionId) {
        return jdbc.query(HEAD_COST, Params.of().bigint("partition", partitionId), rs -> rs.getInt(1)).stream()
                .mapToInt(Integer::intValue).findFirst();
    }

    /** Counts a failed admission of a staged job; @return true when that parked it. */
    public boolean failedAttempt(long submissionId, String error, int maxAttempts) {
        return !jdbc.query(FAILED_ATTEMPT, Params.of().text("error", error).integer("maxAttempts", maxAttempts)
                .bigint("submission", submissionId), rs -> rs.getLong(1)).isEmpty();
    }

    /** Takes one due bypassing restart of a partition this transaction has locked; empty if another took it. */
    public Optional<StagedJob> takeBypassed(long submissionId, long partitionId) {
        return jdbc.query(TAKE_BYPASSED, Params.of().bigint("submission", submissionId).bigint("partition", partitionId),
                StagedJobRows::read).stream().findFirst();
    }

    /** Turns a bypassing restart JBeret refused into an ordinary waiting one, with its error counted. */
    public void bypassRefused(long submissionId, String error) {
        jdbc.update(BYPASS_REFUSED, Params.of().text("error", error).bigint("submission", submissionId));
    }
}
