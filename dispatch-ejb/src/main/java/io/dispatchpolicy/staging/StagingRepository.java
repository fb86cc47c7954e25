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
    // the sequence in input order (a job whose id its key drew keeps it, SubmissionKeys), and are returned in
    // input order. A deadline is an instant, or a wait counted from when the job is due. A lane's gate row gains no jobs: with
    // its context unchanged it is locked (ON CONFLICT locks the row it skips) but not rewritten, which
    // saves a policy with lanes a row version per submission; no job joins it, so it need not be returned.
    private static final Sql STAGE = Sql.of("""
            WITH rows AS (
                SELECT * FROM unnest(:rowKeys::text[], :rowLanes::text[], :rowContexts::text[], :rowShards::text[],
                                     :rowPending::int[], :rowScheduled::int[], :rowTops::int[])
                       WITH ORDINALITY AS t(k, l, c, sh, n, s, top, ord)),
            jobs AS (
                SELECT * FROM unnest(:jobKeys::text[], :jobLanes::text[], :jobParameters::text[], :jobRestarts::bigint[],
                                     :jobPriorities::int[], :jobDelays::bigint[], :jobAts::bigint[], :jobCosts::int[], :jobIds::bigint[],
                                     :jobOffsets::bigint[])
                       WITH ORDINALITY AS u(k, l, params, restart, priority, delay, at, cost, given, offset_ms, ord)),
            numbered AS MATERIALIZED (
                SELECT j.*, coalesce(j.given, nextval('dispatch.submission_id_seq')) AS id,
                       CASE WHEN j.at IS NOT NULL THEN to_timestamp(j.at / 1000.0)
                            WHEN j.delay IS NOT NULL THEN clock_timestamp() + make_interval(secs => j.delay / 1000.0) END AS due
                  FROM (SELECT * FROM jobs ORDER BY ord) j),
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
                INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, submitted_by, staged_at, restart_of,
                                                  priority, due_at, next_age_at, age_every_ms, age_step, age_cap,
                                                  run_timeout_ms, progress_timeout_ms, cost, expires_at, ordered_at)
                SELECT j.id, parts.id, :jobName, j.params::jsonb, :submittedBy, clock_timestamp(), j.restart, j.priority, j.due,
                       CASE WHEN a.every IS NOT NULL AND j.priority < a.cap
                            THEN coalesce(j.due, clock_timestamp()) + make_interval(secs => a.every / 1000.0) END,
                       a.every, a.step, a.cap, :runTimeoutMs::bigint, :progressTimeoutMs::bigint, j.cost,
                       CASE WHEN :expireAtMs::bigint IS NOT NULL THEN to_timestamp(:expireAtMs::bigint / 1000.0)
                            WHEN :expireAfterMs::bigint IS NOT NULL
                            THEN coalesce(j.due, clock_timestamp()) + make_interval(secs => :expireAfterMs::bigint / 1000.0) END,
                       clock_timestamp() - make_interval(secs => j.offset_ms / 1000.0)
                  FROM numbered j
                 CROSS JOIN (SELECT :ageEveryMs::bigint AS every, :ageStep::int AS step, :ageCap::int AS cap) a
                  JOIN parts ON parts.partition_key = j.k AND parts.lane = j.l
                 ORDER BY j.ord
                RETURNING id)
            SELECT j.id FROM numbered j JOIN ins ON ins.id = j.id ORDER BY j.ord
            """);

    // A restart keeps the submission id it runs for, its priority and its place within it (ordered_at, ADR 0046), its cost and its own timeouts (its admission's
    // record holds them); its partition exists (a partition
    // with in-flight or dead jobs is never swept). Due at once it waits in the partition; with a delay,
    // or when it bypasses the gates, it is scheduled (the tick promotes or starts it when due). A dead
    // job restarted is dead no more.
    private static final Sql RESTAGE = Sql.of("""
            WITH ins AS (
                INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, submitted_by, staged_at, restart_of,
                                                  priority, attempt, due_at, bypass, run_timeout_ms, progress_timeout_ms, cost, ordered_at)
                SELECT :submission, :partition, :jobName, '{}'::jsonb, :submittedBy, clock_timestamp(), :execution, :priority,
                       :attempt, clock_timestamp() + make_interval(secs => :delayMs::double precision / 1000), :bypass,
                       a.run_timeout_ms, a.progress_timeout_ms, coalesce(a.cost, 1),
                       coalesce(a.ordered_at, a.staged_at, clock_timestamp())
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

    // A backlog cap's check before anything is staged (ADR 0036): the call's partition rows upserted and locked
    // in lock order (a new one born empty, with the job's context), returning what each holds staged. Held until
    // the commit, so no other call can fill them meanwhile, on any node.
    private static final Sql LOCK_COUNTS = Sql.of("""
            WITH rows AS (
                SELECT * FROM unnest(:rowKeys::text[], :rowLanes::text[], :rowContexts::text[], :rowShards::text[])
                       WITH ORDINALITY AS t(k, l, c, sh, ord))
            INSERT INTO dispatch.partitions AS p (policy_name, partition_key, lane, context, context_updated_at, paused, shard)
            SELECT :policy, t.k, t.l, t.c::jsonb, clock_timestamp(),
                   EXISTS (SELECT 1 FROM dispatch.policies WHERE name = :policy AND paused_at IS NOT NULL), t.sh
              FROM rows t
             ORDER BY t.ord
            ON CONFLICT (policy_name, partition_key, lane) DO UPDATE SET pending_count = p.pending_count
            RETURNING p.partition_key, p.lane, p.pending_count + p.scheduled_count + p.parked_count
            """);

    // A backlog cap's overflow after staging, under the partition locks the staging took: each partition over
    // its cap keeps its newest :keep staged jobs (by submission id; a schedule's occurrence is never discarded,
    // its schedule owns it) and the rest are discarded, recorded, and out of their counts. keep-newest keeps
    // what a submission at a time would have left: at the cap, each one replaces all.
    private static final Sql TRIM = Sql.template("""
            WITH want AS (
                SELECT * FROM unnest(:rowKeys::text[], :rowLanes::text[]) AS w(k, l)),
            part AS (
                SELECT p.id, p.partition_key, p.lane,
                       CASE WHEN :keepNewest THEN ((p.pending_count + p.scheduled_count + p.parked_count - :cap - 1) % :cap) + 1
                            ELSE :cap END AS keep
                  FROM dispatch.partitions p JOIN want w ON p.policy_name = :policy AND p.partition_key = w.k AND p.lane = w.l
                 WHERE p.pending_count + p.scheduled_count + p.parked_count > :cap),
            doomed AS (
                SELECT d.id FROM part CROSS JOIN LATERAL (
                    SELECT s.id FROM dispatch.staged_jobs s WHERE s.partition_id = part.id AND s.schedule_id IS NULL
                     ORDER BY s.id DESC OFFSET part.keep) d),
            gone AS (
                DELETE FROM dispatch.staged_jobs s WHERE s.id = ANY (ARRAY(SELECT id FROM doomed))
                RETURNING s.id, s.partition_id, s.job_name, s.job_parameters, s.submitted_by, s.staged_at, s.priority,
                          s.parked_at IS NOT NULL AS parked, s.due_at IS NOT NULL AS scheduled),
            recorded AS (
                INSERT INTO dispatch.discarded_jobs (submission_id, policy_name, partition_key, lane, job_name, job_parameters,
                                                     submitted_by, staged_at, priority, reason, detail)
                SELECT g.id, :policy, part.partition_key, part.lane, g.job_name, g.job_parameters, g.submitted_by, g.staged_at,
                       g.priority, CASE WHEN :keepNewest THEN 'replaced' ELSE 'dropped' END,
                       'backlog cap ' || :cap || ' (' || CASE WHEN :keepNewest THEN 'keep-newest' ELSE 'drop-oldest' END || ')'
                  FROM gone g JOIN part ON part.id = g.partition_id),
            counted AS ({{outOfCounts}})
            SELECT id, n FROM counted
            """).with("outOfCounts", StagedJobRows.OUT_OF_COUNTS);

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
        return stage(policyName, jobName, submittedBy, submissions, restartOf, aging, timeouts, null, Deadline.NONE);
    }

    /** A call's deadline: an instant (epoch ms), or a wait after each job is due (ms); both null for none. */
    public record Deadline(Long atMillis, Long afterMillis) {
        public static final Deadline NONE = new Deadline(null, null);
    }

    /**
     * As {@link #stage(String, String, String, List, List, PriorityAging, JobTimeouts)}, with the ids some jobs'
     * keys drew ({@code ids}: null, or null entries, for the others) and the call's deadline.
     */
    public long[] stage(String policyName, String jobName, String submittedBy, List<Submission> submissions,
                        List<Long> restartOf, PriorityAging aging, JobTimeouts timeouts, List<Long> ids0, Deadline deadline) {
        long[] ids = new long[submissions.size()];
        for (int from = 0; from < submissions.size(); from += CHUNK) {
            int to = Math.min(from + CHUNK, submissions.size());
            List<Submission> chunk = submissions.subList(from, to);
            Params params = Params.of().text("policy", policyName).text("jobName", jobName).text("submittedBy", submittedBy)
                    .bigint("ageEveryMs", aging == null ? null : aging.every().toMillis())
                    .integer("ageStep", aging == null ? null : aging.step())
                    .integer("ageCap", aging == null ? null : aging.cap())
                    .bigint("runTimeoutMs", timeouts.runMs()).bigint("progressTimeoutMs", timeouts.progressMs())
                    .longs("jobRestarts", restartOf == null ? java.util.Collections.nCopies(chunk.size(), null) : restartOf.subList(from, to))
                    .longs("jobIds", ids0 == null ? java.util.Collections.nCopies(chunk.size(), null) : ids0.subList(from, to))
                    .bigint("expireAtMs", deadline.atMillis()).bigint("expireAfterMs", deadline.afterMillis());
            List<Long> chunkIds = jdbc.query(STAGE, placed(chunk, params), rs -> rs.getLong(1));
            for (int i = 0; i < chunkIds.size(); i++) {
                ids[from + i] = chunkIds.get(i);
            }
        }
        return ids;
    }

    /** A partition row a call stages into, and how many jobs it holds staged. */
    public record Backlog(String partitionKey, String lane, int staged) {
    }

    /**
     * Locks the partition rows these jobs go to (creating missing ones, empty) and reads their staged counts:
     * for a backlog cap's reject, before anything is staged (ADR 0036).
     */
    public List<Backlog> lockBacklogs(String policyName, List<Submission> submissions) {
        Params rows = placed(submissions, Params.of().text("policy", policyName), true);
        return jdbc.query(LOCK_COUNTS, rows, rs -> new Backlog(rs.getString(1), rs.getString(2), rs.getInt(3)));
    }

    /** How many jobs of these submissions go to each partition row. */
    public static Map<List<String>, Integer> perPartition(List<Submission> submissions) {
        Map<List<String>, Integer> n = new HashMap<>();
        for (Submission s : submissions) {
            n.merge(List.of(s.partitionKey(), s.lane()), 1, Integer::sum);
        }
        return n;
    }

    /**
     * Brings the partitions these jobs went to back within the cap, after they were staged: keeping the newest
     * {@code cap} (drop-oldest), or what one submission at a time would have left (keep-newest: at the cap each
     * replaces them all). @return the jobs discarded
     */
    public int trimToCap(String policyName, List<Submission> submissions, int cap, boolean keepNewest) {
        Map<Address, Boolean> rows = new TreeMap<>();
        submissions.forEach(s -> rows.put(new Address(s.partitionKey(), s.lane()), true));
        List<Address> addresses = new ArrayList<>(rows.keySet());
        List<long[]> trimmed = jdbc.query(TRIM, Params.of().text("policy", policyName).integer("cap", cap).bool("keepNewest", keepNewest)
                        .texts("rowKeys", addresses.stream().map(Address::key).toList())
                        .texts("rowLanes", addresses.stream().map(Address::lane).toList()),
                rs -> new long[] {rs.getLong(1), rs.getLong(2)});
        if (trimmed.isEmpty()) {
            return 0;
        }
        // a statement of its own: it must see the rows gone
        jdbc.update(StagedJobRows.RESET_TOP_PRIORITIES, Params.of().longs("partitions", trimmed.stream().map(t -> t[0]).toList()));
        return (int) trimmed.stream().mapToLong(t -> t[1]).sum();
    }

    /** STAGE's rows and jobs for these jobs, already in their lanes: partition rows summed here, in lock order. */
    private static Params placed(List<Submission> chunk, Params params) {
        return placed(chunk, params, false);
    }

    private static Params placed(List<Submission> chunk, Params params, boolean rowsOnly) {
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
        params.texts("rowKeys", rows.stream().map(Address::key).toList())
                .texts("rowLanes", rows.stream().map(Address::lane).toList())
                .texts("rowContexts", new ArrayList<>(contextByRow.values()))
                .texts("rowShards", rows.stream().map(r -> shardByKey.get(r.key())).toList());
        if (rowsOnly) {
            return params;
        }
        return params.ints("rowPending", rows.stream().map(r -> countByRow.getOrDefault(r, 0)).toList())
                .ints("rowScheduled", rows.stream().map(r -> scheduledByRow.getOrDefault(r, 0)).toList())
                .ints("rowTops", rows.stream().map(r -> topByRow.getOrDefault(r, 0)).toList())
                .texts("jobKeys", chunk.stream().map(Submission::partitionKey).toList())
                .texts("jobLanes", chunk.stream().map(Submission::lane).toList())
                .texts("jobParameters", chunk.stream().map(s -> JsonCodec.write(s.parameters().asMap())).toList())
                .ints("jobPriorities", chunk.stream().map(Submission::priority).toList())
                .longs("jobDelays", chunk.stream().map(Submission::delayMillis).toList())
                .longs("jobAts", chunk.stream().map(Submission::atMillis).toList())
                .ints("jobCosts", chunk.stream().map(Submission::cost).toList())
                .longs("jobOffsets", chunk.stream().map(Submission::offsetMillis).toList());
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
