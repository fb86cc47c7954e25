package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.notify.EventType;
import io.dispatchpolicy.notify.Outbox;
import io.dispatchpolicy.partition.PartitionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Staged jobs a submission control took out without running them (ADR 0036): expired at their deadline,
 * dropped by a backlog cap as the oldest, or replaced by a newer job. Each is recorded in
 * {@code dispatch.discarded_jobs}, kept for {@code dispatch.dead-retention}.
 *
 * <p>A deadline is kept two ways, so that neither the claim nor the take ever reads expired rows one by one:
 * the tick's first step expires the rows past their deadline off a partial index (this class's
 * {@link #expireDue}, its cost the number expired), and an admission that takes a job whose deadline has
 * passed in between records it here instead of starting it ({@link #expiredAtAdmission}): it is out of its
 * partition's counts as every taken job is.
 */
@ApplicationScoped
public class DiscardedJobs {

    // The webhooks' job.expired events (ADR 0041) of the jobs a statement just recorded as expired ("recorded", with these
    // columns), in that statement: one per subscribed webhook in :hooks, none when it is empty.
    private static final String RECORDED_COLUMNS = "submission_id, policy_name, partition_key, lane, job_name, submitted_by, detail";
    private static final String EXPIRED_EVENTS = Outbox.fanOut("""
            SELECT 'job.expired:' || x.submission_id AS event_id,
                   jsonb_build_object('submissionId', x.submission_id, 'policy', x.policy_name, 'partitionKey', x.partition_key,
                                      'lane', x.lane, 'jobName', x.job_name, 'submittedBy', x.submitted_by, 'detail', x.detail) AS payload
              FROM recorded x""", "'job.expired'");

    // Up to :limit rows past their deadline, their partitions locked (SKIP LOCKED: a partition being admitted
    // waits for the next tick, and its admission expires what it takes), moved to discarded_jobs and out of
    // their partitions' counts. A schedule's occurrence among them is ended 'skipped'/'expired' here; the caller
    // stages its schedule's next one in the same transaction (a row per such occurrence, beside its partition's).
    private static final Sql EXPIRE = StagedJobRows.pastDue("expires_at", "expiring",
            "s.id, s.partition_id, s.job_name, s.job_parameters, s.submitted_by, s.staged_at, s.priority, s.expires_at, "
                    + "s.parked_at IS NOT NULL AS parked, s.due_at IS NOT NULL AS scheduled",
            "true", """
            gone AS (
                DELETE FROM dispatch.staged_jobs s USING expiring e WHERE s.id = e.id RETURNING s.id),
            recorded AS (
                INSERT INTO dispatch.discarded_jobs (submission_id, policy_name, partition_key, lane, job_name, job_parameters,
                                                     submitted_by, staged_at, priority, reason, detail)
                SELECT e.id, p.policy_name, p.partition_key, p.lane, e.job_name, e.job_parameters, e.submitted_by, e.staged_at,
                       e.priority, 'expired', 'not admitted by its deadline, ' || to_char(e.expires_at AT TIME ZONE 'UTC',
                                                                                         'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                  FROM expiring e JOIN dispatch.partitions p ON p.id = e.partition_id
                 WHERE e.id IN (SELECT id FROM gone)
                RETURNING {{recordedColumns}}),
            told AS ({{told}}),
            per AS (
                SELECT partition_id, count(*) FILTER (WHERE parked)::int AS parked,
                       count(*) FILTER (WHERE scheduled AND NOT parked)::int AS scheduled,
                       count(*) FILTER (WHERE NOT scheduled AND NOT parked)::int AS waiting
                  FROM expiring GROUP BY partition_id),
            counted AS (
                UPDATE dispatch.partitions p
                   SET parked_count = p.parked_count - per.parked, scheduled_count = p.scheduled_count - per.scheduled,
                       pending_count = p.pending_count - per.waiting
                  FROM per
                 WHERE p.id = per.partition_id
                RETURNING p.id, p.policy_name, p.partition_key, p.lane, per.parked + per.scheduled + per.waiting AS n),
            ended AS (
                UPDATE dispatch.schedule_occurrences o
                   SET state = 'skipped', reason = 'expired', ended_at = clock_timestamp()
                  FROM expiring e
                 WHERE o.submission_id = e.id AND o.state = 'future' AND e.id IN (SELECT id FROM gone)
                RETURNING e.partition_id, o.schedule_id, o.kind, o.run_at, o.overdue_seq, o.schedule_version)
            SELECT c.id, c.policy_name, c.n, c.partition_key, c.lane, x.schedule_id, x.kind, x.run_at, x.overdue_seq,
                   x.schedule_version, statement_timestamp()
              FROM counted c LEFT JOIN ended x ON x.partition_id = c.id
            """).with("recordedColumns", RECORDED_COLUMNS).with("told", EXPIRED_EVENTS);

    // Jobs an admission took whose deadline had passed: recorded instead of started. The admission has taken
    // them out of staging and counts them out of their partition as it does every job it takes.
    private static final Sql EXPIRED_AT_ADMISSION = Sql.template("""
            WITH recorded AS (
            INSERT INTO dispatch.discarded_jobs (submission_id, policy_name, partition_key, lane, job_name, job_parameters,
                                                 submitted_by, staged_at, priority, reason, detail)
            SELECT j.id, p.policy_name, p.partition_key, p.lane, j.job_name, j.params::jsonb, j.submitted_by, j.staged_at,
                   j.priority, 'expired', 'not admitted by its deadline, ' || j.expires
              FROM unnest(:ids::bigint[], :jobNames::text[], :parameters::text[], :submittedBy::text[], :stagedAt::timestamptz[],
                          :priorities::int[], :expires::text[]) AS j(id, job_name, params, submitted_by, staged_at, priority, expires)
              JOIN dispatch.partitions p ON p.id = :partition
            RETURNING {{recordedColumns}})
            {{told}}
            """).with("recordedColumns", RECORDED_COLUMNS).with("told", EXPIRED_EVENTS);

    private static final Sql FIND = Sql.of("""
            SELECT reason, discarded_at FROM dispatch.discarded_jobs WHERE submission_id = :submission
            """);

    // An operator's bulk discard or expiry (ADR 0039): a batch of staged jobs out at once, as a backlog cap's overflow
    // goes (StagingRepository's TRIM): the jobs'
    // partitions locked in lock order (an admission of them waits, or has taken them: those are skipped), the
    // rows deleted, kept as discarded or expired, and out of their partitions' counts.
    private static final Sql TAKE_STAGED = Sql.template("""
            WITH pick AS MATERIALIZED (
                SELECT s.id, s.partition_id FROM dispatch.staged_jobs s WHERE s.id = ANY (CAST(:ids AS bigint[]))),
            locked AS MATERIALIZED (
                SELECT p.id, p.policy_name, p.partition_key, p.lane FROM dispatch.partitions p
                 WHERE p.id IN (SELECT partition_id FROM pick) ORDER BY {{lockOrder}} FOR UPDATE),
            gone AS (
                DELETE FROM dispatch.staged_jobs s USING pick, locked
                 WHERE s.id = pick.id AND s.partition_id = locked.id AND s.schedule_id IS NULL
                RETURNING s.id, s.partition_id, s.job_name, s.job_parameters, s.submitted_by, s.staged_at, s.priority,
                          s.parked_at IS NOT NULL AS parked, s.due_at IS NOT NULL AS scheduled),
            recorded AS (
                INSERT INTO dispatch.discarded_jobs (submission_id, policy_name, partition_key, lane, job_name, job_parameters,
                                                     submitted_by, staged_at, priority, reason, detail)
                SELECT g.id, l.policy_name, l.partition_key, l.lane, g.job_name, g.job_parameters, g.submitted_by, g.staged_at,
                       g.priority, :reason, :detail
                  FROM gone g JOIN locked l ON l.id = g.partition_id),
            counted AS ({{outOfCounts}})
            SELECT l.policy_name, count(*)::int, ARRAY(SELECT id FROM counted)
              FROM gone g JOIN locked l ON l.id = g.partition_id GROUP BY l.policy_name
            """).with("lockOrder", PartitionRepository.lockOrder("")).with("outOfCounts", StagedJobRows.OUT_OF_COUNTS);


    @Inject
    Jdbc jdbc;

    @Inject
    Outbox outbox;

    /**
     * Expires up to {@code limit} staged jobs past their deadline (the database's clock). The partitions of the
     * expired jobs stay locked until the caller's transaction ends.
     *
     * @return per policy, how many expired, and the schedules' occurrences among them (already ended)
     */
    public Expired expireDue(int limit) {
        Map<String, Integer> byPolicy = new HashMap<>();
        java.util.Set<Long> partitions = new java.util.LinkedHashSet<>();
        List<ExpiredOccurrence> occurrences = new ArrayList<>();
        jdbc.query(EXPIRE, Params.of().integer("limit", limit).texts("hooks", outbox.hooks(EventType.JOB_EXPIRED)), rs -> {
            if (partitions.add(rs.getLong(1))) { // a row per occurrence, each with its partition's count: counted once
                byPolicy.merge(rs.getString(2), rs.getInt(3), Integer::sum);
            }
            long schedule = rs.getLong(6);
            if (!rs.wasNull()) {
                occurrences.add(new ExpiredOccurrence(rs.getString(2), rs.getString(4), rs.getString(5), schedule, rs.getString(7),
                        rs.getTimestamp(8).toInstant(), rs.getInt(9), rs.getInt(10), rs.getTimestamp(11).toInstant()));
            }
            return null;
        });
        if (!partitions.isEmpty()) {
            // a statement of its own: it must see the rows gone
            jdbc.update(StagedJobRows.RESET_TOP_PRIORITIES, Params.of().longs("partitions", new ArrayList<>(partitions)));
        }
        return new Expired(byPolicy, occurrences);
    }

    /**
     * Takes these staged jobs out under their partitions' locks (a schedule's occurrence excepted), kept with {@code reason}
     * ("discarded" or "expired") and {@code detail}.
     *
     * @return how many were still staged, per policy (the rest were admitted or taken meanwhile)
     */
    public Map<String, Integer> discard(List<Long> submissionIds, String reason, String detail) {
        Map<String, Integer> taken = new java.util.TreeMap<>();
        java.util.Set<Long> partitions = new java.util.HashSet<>();
        jdbc.query(TAKE_STAGED, Params.of().longs("ids", submissionIds).text("reason", reason).text("detail", detail), rs -> {
            taken.put(rs.getString(1), rs.getInt(2));
            partitions.addAll(List.of((Long[]) rs.getArray(3).getArray()));
            return null;
        });
        if (!partitions.isEmpty()) {
            // a statement of its own: it must see the rows gone
            jdbc.update(StagedJobRows.RESET_TOP_PRIORITIES, Params.of().longs("partitions", List.copyOf(partitions)));
        }
        return taken;
    }

    /** What {@link #expireDue} expired: per policy how many, and the schedules' occurrences among them. */
    public record Expired(Map<String, Integer> byPolicy, List<ExpiredOccurrence> occurrences) {
    }

    /**
     * A schedule's occurrence the tick expired, ended {@code skipped}/{@code expired}, in a partition the
     * transaction holds ({@code now}: the database's clock then).
     */
    public record ExpiredOccurrence(String policyName, String partitionKey, String lane, long scheduleId, String kind, Instant runAt,
                                    int overdueSeq, int version, Instant now) {
    }

    /** Records jobs of one partition that an admission took past their deadline, instead of starting them. */
    public void expiredAtAdmission(long partitionId, List<StagedJob> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        jdbc.update(EXPIRED_AT_ADMISSION, Params.of().bigint("partition", partitionId).texts("hooks", outbox.hooks(EventType.JOB_EXPIRED))
                .longs("ids", jobs.stream().map(StagedJob::submissionId).toList())
                .texts("jobNames", jobs.stream().map(StagedJob::jobName).toList())
                .texts("parameters", jobs.stream().map(j -> JsonCodec.write(j.parameters().asMap())).toList())
                .texts("submittedBy", jobs.stream().map(StagedJob::submittedBy).toList())
                .texts("stagedAt", jobs.stream().map(j -> j.stagedAt().toString()).toList())
                .ints("priorities", jobs.stream().map(StagedJob::priority).toList())
                .texts("expires", jobs.stream().map(j -> String.valueOf(j.expiresAt())).toList()));
    }

    /** What a control did with a submission that never ran, and when; empty when it did nothing. */
    public Optional<Discarded> find(long submissionId) {
        return jdbc.query(FIND, Params.of().bigint("submission", submissionId),
                rs -> new Discarded(rs.getString(1), rs.getTimestamp(2).toInstant())).stream().findFirst();
    }

    /** A discarded job's reason ({@code expired}, {@code dropped}, {@code replaced}) and when. */
    public record Discarded(String reason, Instant at) {
    }
}
