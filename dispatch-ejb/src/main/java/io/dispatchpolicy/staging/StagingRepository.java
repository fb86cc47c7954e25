package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.spi.PriorityAging;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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
    private static final Sql STAGE = Sql.of("""
            WITH rows AS (
                SELECT * FROM unnest(:rowKeys::text[], :rowLanes::text[], :rowContexts::text[], :rowShards::text[],
                                     :rowPending::int[], :rowScheduled::int[], :rowTops::int[])
                       WITH ORDINALITY AS t(k, l, c, sh, n, s, top, ord)),
            jobs AS (
                SELECT * FROM unnest(:jobKeys::text[], :jobLanes::text[], :jobParameters::text[], :jobRestarts::bigint[],
                                     :jobPriorities::int[], :jobDelays::bigint[], :jobAts::bigint[], :jobCosts::int[])
                       WITH ORDINALITY AS u(k, l, params, restart, priority, delay, at, cost, ord)),
            parts AS (
                INSERT INTO dispatch.partitions AS p (policy_name, partition_key, lane, context, context_updated_at, pending_count,
                                                      scheduled_count, top_priority, paused, shard)
                SELECT :policy, t.k, t.l, t.c::jsonb, clock_timestamp(), t.n, t.s, t.top,
                       EXISTS (SELECT 1 FROM dispatch.policies WHERE name = :policy AND paused_at IS NOT NULL), t.sh
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
                                                  priority, due_at, next_age_at, age_every_ms, age_step, age_cap,
                                                  run_timeout_ms, progress_timeout_ms, cost)
                SELECT parts.id, :jobName, j.params::jsonb, :submittedBy, clock_timestamp(), j.restart, j.priority, j.due,
                       CASE WHEN a.every IS NOT NULL AND j.priority < a.cap
                            THEN coalesce(j.due, clock_timestamp()) + make_interval(secs => a.every / 1000.0) END,
                       a.every, a.step, a.cap, :runTimeoutMs::bigint, :progressTimeoutMs::bigint, j.cost
                  FROM (SELECT u.*, CASE WHEN u.at IS NOT NULL THEN to_timestamp(u.at / 1000.0)
                                         WHEN u.delay IS NOT NULL
                                         THEN clock_timestamp() + make_interval(secs => u.delay / 1000.0) END AS due
                          FROM jobs u) j
                 CROSS JOIN (SELECT :ageEveryMs::bigint AS every, :ageStep::int AS step, :ageCap::int AS cap) a
                  JOIN parts ON parts.partition_key = j.k AND parts.lane = j.l
                 ORDER BY j.ord
                RETURNING id)
            SELECT id FROM ins ORDER BY id
            """);

    // A restart keeps the submission id it runs for, its priority, its cost and its own timeouts (its admission's
    // record holds them); its partition exists (a partition
    // with in-flight or dead jobs is never swept). Due at once it waits in the partition; with a delay,
    // or when it bypasses the gates, it is scheduled (the tick promotes or starts it when due). A dead
    // job restarted is dead no more.
    private static final Sql RESTAGE = Sql.of("""
            WITH ins AS (
                INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, submitted_by, staged_at, restart_of,
                                                  priority, attempt, due_at, bypass, run_timeout_ms, progress_timeout_ms, cost)
                SELECT :submission, :partition, :jobName, '{}'::jsonb, :submittedBy, clock_timestamp(), :execution, :priority,
                       :attempt, clock_timestamp() + make_interval(secs => :delayMs::double precision / 1000), :bypass,
                       a.run_timeout_ms, a.progress_timeout_ms, coalesce(a.cost, 1)
                  FROM (SELECT 1) one LEFT JOIN dispatch.admissions a ON a.submission_id = :submission
                RETURNING due_at IS NULL AS waiting, priority),
            revived AS (
                DELETE FROM dispatch.dead_jobs WHERE submission_id = :submission RETURNING 1)
            UPDATE dispatch.partitions
               SET top_priority = CASE WHEN NOT ins.waiting THEN top_priority WHEN pending_count = 0 THEN ins.priority
                                       ELSE greatest(top_priority, ins.priority) END,
                   pending_count = pending_count + CASE WHEN ins.waiting THEN 1 ELSE 0 END,
                   scheduled_count = scheduled_count + CASE WHEN ins.waiting THEN 0 ELSE 1 END
              FROM ins
             WHERE id = :partition
            """);

    private static final Sql RESTART_OF = Sql.of("SELECT id FROM dispatch.staged_jobs WHERE restart_of = :execution LIMIT 1");

    private static final Sql FIND = Sql.template("""
            SELECT {{columns}} FROM dispatch.staged_jobs WHERE id = :submission
            """).with("columns", StagedJobRows.columns(""));

    // One staged job out (a schedule's occurrence superseded or skipped), out of the count it was in.
    private static final Sql REMOVE = Sql.of("""
            WITH gone AS (
                DELETE FROM dispatch.staged_jobs WHERE id = :submission
                RETURNING partition_id, parked_at IS NOT NULL AS parked, due_at IS NOT NULL AS scheduled)
            UPDATE dispatch.partitions p
               SET parked_count = p.parked_count - CASE WHEN g.parked THEN 1 ELSE 0 END,
                   scheduled_count = p.scheduled_count - CASE WHEN g.scheduled AND NOT g.parked THEN 1 ELSE 0 END,
                   pending_count = p.pending_count - CASE WHEN NOT g.scheduled AND NOT g.parked THEN 1 ELSE 0 END
              FROM gone g
             WHERE p.id = g.partition_id
            RETURNING p.id
            """);

    private static final Sql RESET_TOP_PRIORITY = Sql.template("""
            UPDATE dispatch.partitions p SET top_priority = {{topPriority}} WHERE p.id = :partition
            """).with("topPriority", StagedJobRows.topPriorityOf("p.id"));

    // Operator drains: every staged job (waiting or parked) of the partitions, under their row locks,
    // so no admission of them is in progress.
    private static final Sql DRAIN = Sql.template("""
            WITH locked AS (
                SELECT id FROM dispatch.partitions WHERE {{which}} ORDER BY {{lockOrder}} FOR UPDATE),
            gone AS (
                DELETE FROM dispatch.staged_jobs s USING locked WHERE s.partition_id = locked.id RETURNING s.id),
            reset AS (
                UPDATE dispatch.partitions SET pending_count = 0, parked_count = 0, scheduled_count = 0, top_priority = 0
                 WHERE id IN (SELECT id FROM locked))
            SELECT count(*) FROM gone
            """).with("lockOrder", PartitionRepository.LOCK_ORDER);
    private static final Sql DRAIN_PARTITION = DRAIN.with("which", "id = :partition");
    private static final Sql DRAIN_POLICY = DRAIN.with("which", "policy_name = :policy");

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
        return jdbc.query(DRAIN_PARTITION, Params.of().bigint("partition", partitionId), rs -> rs.getInt(1)).get(0);
    }

    /** Deletes every staged job of the policy; @return how many. */
    public int drainPolicy(String policyName) {
        return jdbc.query(DRAIN_POLICY, Params.of().text("policy", policyName), rs -> rs.getInt(1)).get(0);
    }


    /**
     * Stages submissions of one job for one policy, in the caller's transaction.
     *
     * @param restartOf for restarts, the execution each submission restarts (same order); else null
     * @param aging     the policy's priority aging, or null
     * @param timeouts  the submissions' own timeouts (the same for every one of the call)
     * @return submission ids in the order of {@code submissions}
     */
    public long[] stage(String policyName, String jobName, String submittedBy, List<Submission> submissions,
                        List<Long> restartOf, PriorityAging aging, JobTimeouts timeouts) {
        long[] ids = new long[submissions.size()];
        for (int from = 0; from < submissions.size(); from += CHUNK) {
            int to = Math.min(from + CHUNK, submissions.size());
            List<Submission> chunk = submissions.subList(from, to);
            Params params = Params.of().text("policy", policyName).text("jobName", jobName).text("submittedBy", submittedBy)
                    .bigint("ageEveryMs", aging == null ? null : aging.every().toMillis())
                    .integer("ageStep", aging == null ? null : aging.step())
                    .integer("ageCap", aging == null ? null : aging.cap())
                    .bigint("runTimeoutMs", timeouts.runMs()).bigint("progressTimeoutMs", timeouts.progressMs())
                    .longs("jobRestarts", restartOf == null ? java.util.Collections.nCopies(chunk.size(), null) : restartOf.subList(from, to));
            List<Long> chunkIds = jdbc.query(STAGE, placed(chunk, params), rs -> rs.getLong(1));
            for (int i = 0; i < chunkIds.size(); i++) {
                ids[from + i] = chunkIds.get(i);
            }
        }
        return ids;
    }

    /** STAGE's rows and jobs for these jobs, already in their lanes: partition rows summed here, in lock order. */
    private static Params placed(List<Submission> chunk, Params params) {
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
        return params.texts("rowKeys", rows.stream().map(Address::key).toList())
                .texts("rowLanes", rows.stream().map(Address::lane).toList())
                .texts("rowContexts", new ArrayList<>(contextByRow.values()))
                .texts("rowShards", rows.stream().map(r -> shardByKey.get(r.key())).toList())
                .ints("rowPending", rows.stream().map(r -> countByRow.getOrDefault(r, 0)).toList())
                .ints("rowScheduled", rows.stream().map(r -> scheduledByRow.getOrDefault(r, 0)).toList())
                .ints("rowTops", rows.stream().map(r -> topByRow.getOrDefault(r, 0)).toList())
                .texts("jobKeys", chunk.stream().map(Submission::partitionKey).toList())
                .texts("jobLanes", chunk.stream().map(Submission::lane).toList())
                .texts("jobParameters", chunk.stream().map(s -> JsonCodec.write(s.parameters().asMap())).toList())
                .ints("jobPriorities", chunk.stream().map(Submission::priority).toList())
                .longs("jobDelays", chunk.stream().map(Submission::delayMillis).toList())
                .longs("jobAts", chunk.stream().map(Submission::atMillis).toList())
                .ints("jobCosts", chunk.stream().map(Submission::cost).toList());
    }

    /** Stages a restart (see {@link Restart}) in the same transaction as whatever decided it. */
    public void restage(Restart r) {
        // a bypassing restart is always scheduled, so the tick's bypass step finds it by due_at
        Long delayMs = r.delay() != null ? Long.valueOf(r.delay().toMillis()) : r.bypass() ? Long.valueOf(0) : null;
        jdbc.update(RESTAGE, Params.of().bigint("submission", r.submissionId()).bigint("partition", r.partitionId())
                .text("jobName", r.jobName()).text("submittedBy", r.submittedBy()).bigint("execution", r.executionId())
                .integer("priority", r.priority()).integer("attempt", r.attempt()).bigint("delayMs", delayMs)
                .bool("bypass", r.bypass()));
    }

    /** The submission staged to restart this execution, if any (off staged_jobs_restart_of_idx). */
    public Optional<Long> stagedRestartOf(long executionId) {
        return jdbc.query(RESTART_OF, Params.of().bigint("execution", executionId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** The staged job with this submission id, if it is still staged. */
    public Optional<StagedJob> find(long submissionId) {
        return jdbc.query(FIND, Params.of().bigint("submission", submissionId), StagedJobRows::read).stream().findFirst();
    }

    /**
     * Deletes one staged job and takes it out of its partition's counts (scheduled, waiting or parked);
     * the caller holds the partition's lock. @return whether it was still staged
     */
    public boolean remove(long submissionId) {
        List<Long> partition = jdbc.query(REMOVE, Params.of().bigint("submission", submissionId), rs -> rs.getLong(1));
        if (partition.isEmpty()) {
            return false;
        }
        // a statement of its own: it must see the row gone
        jdbc.update(RESET_TOP_PRIORITY, Params.of().bigint("partition", partition.get(0)));
        return true;
    }


}
