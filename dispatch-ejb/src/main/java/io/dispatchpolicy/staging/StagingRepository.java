package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.spi.PriorityAging;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Puts submissions into staging (and restarts back into it), and takes single rows out for operators
 * and schedules (remove, drain). Taking jobs out for admission is the admission's
 * ({@code admission.AdmissionTake}); moving them in time (promotion, aging, bypassing restarts) is the
 * tick's ({@code tick.DueJobs}); a staged row as those statements read it is {@link StagedJobRows}.
 *
 * <p>Staging is one statement per 10,000 jobs, whatever their number: a partition UPSERT and an
 * INSERT in one CTE, both fed by arrays through {@code unnest}, so a 10,000-job call neither loops nor
 * hits PostgreSQL's 65,535 bind-parameter limit (the statement binds a handful of arrays). Jobs come here
 * in their lanes: a policy with demotion rules has counted them for their tenants, in the same
 * transaction, and placed them by the counts ({@code staging.demotion}, ADR 0011).
 */
@ApplicationScoped
public class StagingRepository {

    /** Jobs per statement: keeps one statement's arrays and its WAL record to a sane size. */
    static final int CHUNK = 10_000;

    // One statement per chunk, one round trip even for a single job. The caller has placed every job in
    // its lane and summed the partition rows to upsert (CTE rows: k, l, c, sh, n, s, top, ord), in lock
    // order; the jobs to insert come in input order (CTE jobs: k, l, params, restart, priority, delay,
    // at, ord). A job with a delay or a time is staged scheduled (due_at set): counted in
    // scheduled_count, not in pending_count, until promoted. A job in a lane goes to its key's row of
    // that lane, and the key's gate row (lane '') is upserted with it: it holds the key's gates and
    // newest context. The partition UPSERT comes first: its rows arrive in ord order, which is
    // PartitionRepository.LOCK_ORDER (key, then lane, by code point) like every other multi-partition
    // statement (no deadlock), and every enqueue refreshes the partition's stored context (gates read the
    // newest one) and its shard (ADR 0014: a partition is admitted by its newest job's shard); a
    // partition created while its policy is paused is born paused. Staged rows then take their ids from
    // the sequence in input order, and are returned sorted by id. A lane's gate row gains no jobs: with
    // its context unchanged it is locked (ON CONFLICT locks the row it skips) but not rewritten, which
    // saves a policy with lanes a row version per submission; no job joins it, so it need not be returned.
    private static final String STAGE = """
            WITH rows AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[])
                       WITH ORDINALITY AS t(k, l, c, sh, n, s, top, ord)),
            jobs AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[], ?::int[], ?::bigint[], ?::bigint[])
                       WITH ORDINALITY AS u(k, l, params, restart, priority, delay, at, ord)),
            parts AS (
                INSERT INTO dispatch.partitions AS p (policy_name, partition_key, lane, context, context_updated_at, pending_count,
                                                      scheduled_count, top_priority, paused, shard)
                SELECT ?, t.k, t.l, t.c::jsonb, clock_timestamp(), t.n, t.s, t.top,
                       EXISTS (SELECT 1 FROM dispatch.policies WHERE name = ? AND paused_at IS NOT NULL), t.sh
                  FROM rows t
                 ORDER BY t.ord
                ON CONFLICT (policy_name, partition_key, lane) DO UPDATE
                   SET context = EXCLUDED.context,
                       context_updated_at = EXCLUDED.context_updated_at,
                       shard = EXCLUDED.shard,
                       top_priority = CASE WHEN EXCLUDED.pending_count = 0 THEN p.top_priority
                                           WHEN p.pending_count = 0 THEN EXCLUDED.top_priority
                                           ELSE greatest(p.top_priority, EXCLUDED.top_priority) END,
                       pending_count = p.pending_count + EXCLUDED.pending_count,
                       scheduled_count = p.scheduled_count + EXCLUDED.scheduled_count
                 WHERE EXCLUDED.pending_count <> 0 OR EXCLUDED.scheduled_count <> 0 OR p.context IS DISTINCT FROM EXCLUDED.context
                    OR p.shard <> EXCLUDED.shard
                RETURNING p.id, p.partition_key, p.lane),
            ins AS (
                INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, submitted_by, staged_at, restart_of,
                                                  priority, due_at, next_age_at, age_every_ms, age_step, age_cap)
                SELECT parts.id, ?, j.params::jsonb, ?, clock_timestamp(), j.restart, j.priority, j.due,
                       CASE WHEN a.every IS NOT NULL AND j.priority < a.cap
                            THEN coalesce(j.due, clock_timestamp()) + make_interval(secs => a.every / 1000.0) END,
                       a.every, a.step, a.cap
                  FROM (SELECT u.*, CASE WHEN u.at IS NOT NULL THEN to_timestamp(u.at / 1000.0)
                                         WHEN u.delay IS NOT NULL
                                         THEN clock_timestamp() + make_interval(secs => u.delay / 1000.0) END AS due
                          FROM jobs u) j
                 CROSS JOIN (SELECT ?::bigint AS every, ?::int AS step, ?::int AS cap) a
                  JOIN parts ON parts.partition_key = j.k AND parts.lane = j.l
                 ORDER BY j.ord
                RETURNING id)
            SELECT id FROM ins ORDER BY id
            """;

    // A restart keeps the submission id it runs for and its priority; its partition exists (a partition
    // with in-flight or dead jobs is never swept). Due at once it waits in the partition; with a delay,
    // or when it bypasses the gates, it is scheduled (the tick promotes or starts it when due). A dead
    // job restarted is dead no more.
    private static final String RESTAGE = """
            WITH ins AS (
                INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, submitted_by, staged_at, restart_of,
                                                  priority, attempt, due_at, bypass)
                VALUES (?, ?, ?, '{}'::jsonb, ?, clock_timestamp(), ?, ?, ?,
                        clock_timestamp() + make_interval(secs => ?::double precision / 1000), ?)
                RETURNING due_at IS NULL AS waiting, priority),
            revived AS (
                DELETE FROM dispatch.dead_jobs WHERE submission_id = ? RETURNING 1)
            UPDATE dispatch.partitions
               SET top_priority = CASE WHEN NOT ins.waiting THEN top_priority WHEN pending_count = 0 THEN ins.priority
                                       ELSE greatest(top_priority, ins.priority) END,
                   pending_count = pending_count + CASE WHEN ins.waiting THEN 1 ELSE 0 END,
                   scheduled_count = scheduled_count + CASE WHEN ins.waiting THEN 0 ELSE 1 END
              FROM ins
             WHERE id = ?
            """;

    private static final String FIND = """
            SELECT COLUMNS FROM dispatch.staged_jobs WHERE id = ?
            """.replace("COLUMNS", StagedJobRows.columns(""));

    // One staged job out (a schedule's occurrence superseded or skipped), out of the count it was in.
    private static final String REMOVE = """
            WITH gone AS (
                DELETE FROM dispatch.staged_jobs WHERE id = ?
                RETURNING partition_id, parked_at IS NOT NULL AS parked, due_at IS NOT NULL AS scheduled)
            UPDATE dispatch.partitions p
               SET parked_count = p.parked_count - CASE WHEN g.parked THEN 1 ELSE 0 END,
                   scheduled_count = p.scheduled_count - CASE WHEN g.scheduled AND NOT g.parked THEN 1 ELSE 0 END,
                   pending_count = p.pending_count - CASE WHEN NOT g.scheduled AND NOT g.parked THEN 1 ELSE 0 END
              FROM gone g
             WHERE p.id = g.partition_id
            RETURNING p.id
            """;

    private static final String RESET_TOP_PRIORITY = """
            UPDATE dispatch.partitions p SET top_priority = TOP_PRIORITY WHERE p.id = ?
            """.replace("TOP_PRIORITY", StagedJobRows.topPriorityOf("p.id"));

    // Operator drains: every staged job (waiting or parked) of the partitions, under their row locks,
    // so no admission of them is in progress.
    private static final String DRAIN = """
            WITH locked AS (
                SELECT id FROM dispatch.partitions WHERE %s ORDER BY LOCK_ORDER FOR UPDATE),
            gone AS (
                DELETE FROM dispatch.staged_jobs s USING locked WHERE s.partition_id = locked.id RETURNING s.id),
            reset AS (
                UPDATE dispatch.partitions SET pending_count = 0, parked_count = 0, scheduled_count = 0, top_priority = 0
                 WHERE id IN (SELECT id FROM locked))
            SELECT count(*) FROM gone
            """.replace("LOCK_ORDER", PartitionRepository.LOCK_ORDER);

    @Inject
    Jdbc jdbc;


    /** A partition row of a policy: its key and lane, ordered by code point as {@link PartitionRepository#LOCK_ORDER}. */
    private record Address(String key, String lane) implements Comparable<Address> {
        @Override
        public int compareTo(Address o) {
            int byKey = Jdbc.byCodePoint(key, o.key);
            return byKey != 0 ? byKey : Jdbc.byCodePoint(lane, o.lane);
        }
    }

    /** Deletes every staged job of the partition; @return how many. */
    public int drainPartition(long partitionId) {
        return jdbc.query(DRAIN.formatted("id = ?"), (c, st) -> st.setLong(1, partitionId), rs -> rs.getInt(1)).get(0);
    }

    /** Deletes every staged job of the policy; @return how many. */
    public int drainPolicy(String policyName) {
        return jdbc.query(DRAIN.formatted("policy_name = ?"), (c, st) -> st.setString(1, policyName), rs -> rs.getInt(1)).get(0);
    }


    /**
     * Stages submissions of one job for one policy, in the caller's transaction.
     *
     * @param restartOf for restarts, the execution each submission restarts (same order); else null
     * @param aging     the policy's priority aging, or null
     * @return submission ids in the order of {@code submissions}
     */
    public long[] stage(String policyName, String jobName, String submittedBy, List<Submission> submissions,
                        List<Long> restartOf, PriorityAging aging) {
        long[] ids = new long[submissions.size()];
        for (int from = 0; from < submissions.size(); from += CHUNK) {
            int to = Math.min(from + CHUNK, submissions.size());
            List<Submission> chunk = submissions.subList(from, to);
            List<Long> restarts = restartOf == null ? java.util.Collections.nCopies(chunk.size(), null) : restartOf.subList(from, to);
            StagingOf stagingOf = placed -> {
                StatementBinder head = placed(placed, restarts);
                return (c, st, first) -> {
                    int next = head.bind(c, st, first);
                    st.setString(next++, policyName);
                    st.setString(next++, policyName);
                    st.setString(next++, jobName);
                    st.setString(next++, submittedBy);
                    st.setObject(next++, aging == null ? null : aging.every().toMillis(), java.sql.Types.BIGINT);
                    st.setObject(next++, aging == null ? null : aging.step(), java.sql.Types.INTEGER);
                    st.setObject(next++, aging == null ? null : aging.cap(), java.sql.Types.INTEGER);
                    return next;
                };
            };
            List<Long> chunkIds = staged(stagingOf.of(chunk));
            for (int i = 0; i < chunkIds.size(); i++) {
                ids[from + i] = chunkIds.get(i);
            }
        }
        return ids;
    }

    /** Runs STAGE alone; @return the staged ids, in input order. */
    private List<Long> staged(StatementBinder staging) {
        return jdbc.query(STAGE, (c, st) -> staging.bind(c, st, 1), rs -> rs.getLong(1));
    }

    /** STAGE's parameters for these jobs, in their lanes. */
    @FunctionalInterface
    private interface StagingOf {
        StatementBinder of(List<Submission> placed);
    }

    /** Binds a statement head's parameters from {@code first}; @return the index of the next parameter. */
    @FunctionalInterface
    interface StatementBinder {
        int bind(java.sql.Connection c, java.sql.PreparedStatement st, int first) throws SQLException;
    }

    /** The job columns STAGE binds, in input order. */
    private record JobColumns(List<String> keys, List<String> lanes, List<String> parameters, List<Integer> priorities,
                              List<Long> delays, List<Long> ats) {
        static JobColumns of(List<Submission> chunk) {
            JobColumns columns = new JobColumns(new ArrayList<>(chunk.size()), new ArrayList<>(chunk.size()), new ArrayList<>(chunk.size()),
                    new ArrayList<>(chunk.size()), new ArrayList<>(chunk.size()), new ArrayList<>(chunk.size()));
            for (Submission s : chunk) {
                columns.keys.add(s.partitionKey());
                columns.lanes.add(s.lane());
                columns.parameters.add(JsonCodec.write(s.parameters().asMap()));
                columns.priorities.add(s.priority());
                columns.delays.add(s.delayMillis());
                columns.ats.add(s.atMillis());
            }
            return columns;
        }
    }

    /** STAGE's head: jobs already in their lanes, partition rows summed here. */
    private static StatementBinder placed(List<Submission> chunk, List<Long> restarts) {
        // One partition row per key and lane: the last context seen wins, as it would with one call per
        // job; a key with jobs in lanes also gets its gate row, with that same context.
        Map<Address, String> contextByRow = new TreeMap<>();
        Map<String, String> shardByKey = new HashMap<>();
        Map<Address, Integer> countByRow = new HashMap<>();
        Map<Address, Integer> scheduledByRow = new HashMap<>();
        Map<Address, Integer> topByRow = new HashMap<>();
        for (Submission s : chunk) {
            Address row = new Address(s.partitionKey(), s.lane());
            contextByRow.put(row, s.contextJson());
            shardByKey.put(s.partitionKey(), s.shard());
            if (!s.lane().isEmpty()) {
                contextByRow.put(new Address(s.partitionKey(), ""), s.contextJson());
            }
            if (s.scheduled()) {
                scheduledByRow.merge(row, 1, Integer::sum);
            } else {
                countByRow.merge(row, 1, Integer::sum);
                topByRow.merge(row, s.priority(), Math::max);
            }
        }
        List<Address> rows = new ArrayList<>(contextByRow.keySet());
        JobColumns jobs = JobColumns.of(chunk);
        return (c, st, i) -> {
            st.setArray(i++, Jdbc.texts(c, rows.stream().map(Address::key).toList()));
            st.setArray(i++, Jdbc.texts(c, rows.stream().map(Address::lane).toList()));
            st.setArray(i++, Jdbc.texts(c, new ArrayList<>(contextByRow.values())));
            st.setArray(i++, Jdbc.texts(c, rows.stream().map(r -> shardByKey.get(r.key())).toList()));
            st.setArray(i++, Jdbc.ints(c, rows.stream().map(r -> countByRow.getOrDefault(r, 0)).toList()));
            st.setArray(i++, Jdbc.ints(c, rows.stream().map(r -> scheduledByRow.getOrDefault(r, 0)).toList()));
            st.setArray(i++, Jdbc.ints(c, rows.stream().map(r -> topByRow.getOrDefault(r, 0)).toList()));
            st.setArray(i++, Jdbc.texts(c, jobs.keys()));
            st.setArray(i++, Jdbc.texts(c, jobs.lanes()));
            st.setArray(i++, Jdbc.texts(c, jobs.parameters()));
            st.setArray(i++, Jdbc.longs(c, restarts));
            st.setArray(i++, Jdbc.ints(c, jobs.priorities()));
            st.setArray(i++, Jdbc.longs(c, jobs.delays()));
            st.setArray(i++, Jdbc.longs(c, jobs.ats()));
            return i;
        };
    }


    /** Stages a restart (see {@link Restart}) in the same transaction as whatever decided it. */
    public void restage(Restart r) {
        jdbc.update(RESTAGE, (c, st) -> {
            st.setLong(1, r.submissionId());
            st.setLong(2, r.partitionId());
            st.setString(3, r.jobName());
            st.setString(4, r.submittedBy());
            st.setLong(5, r.executionId());
            st.setInt(6, r.priority());
            st.setInt(7, r.attempt());
            // a bypassing restart is always scheduled, so the tick's bypass step finds it by due_at
            Long delayMs = r.delay() != null ? Long.valueOf(r.delay().toMillis()) : r.bypass() ? Long.valueOf(0) : null;
            st.setObject(8, delayMs, java.sql.Types.BIGINT);
            st.setBoolean(9, r.bypass());
            st.setLong(10, r.submissionId());
            st.setLong(11, r.partitionId());
        });
    }

    /** The submission staged to restart this execution, if any (off staged_jobs_restart_of_idx). */
    public Optional<Long> stagedRestartOf(long executionId) {
        return jdbc.query("SELECT id FROM dispatch.staged_jobs WHERE restart_of = ? LIMIT 1",
                (c, st) -> st.setLong(1, executionId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** The staged job with this submission id, if it is still staged. */
    public Optional<StagedJob> find(long submissionId) {
        return jdbc.query(FIND, (c, st) -> st.setLong(1, submissionId), StagedJobRows::read)
                .stream().findFirst();
    }

    /**
     * Deletes one staged job and takes it out of its partition's counts (scheduled, waiting or parked);
     * the caller holds the partition's lock. @return whether it was still staged
     */
    public boolean remove(long submissionId) {
        List<Long> partition = jdbc.query(REMOVE, (c, st) -> st.setLong(1, submissionId), rs -> rs.getLong(1));
        if (partition.isEmpty()) {
            return false;
        }
        // a statement of its own: it must see the row gone
        jdbc.update(RESET_TOP_PRIORITY, (c, st) -> st.setLong(1, partition.get(0)));
        return true;
    }


}
