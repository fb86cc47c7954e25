package io.dispatchpolicy.schedule;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Occurrences of schedules (ADR 0012). An occurrence is a row here plus a staged job due at its run
 * time, written together by one statement; the partial unique index lets at most one grid occurrence
 * per schedule be future, and its foreign key ties that one to the schedule's current, enabled version.
 */
@ApplicationScoped
public class OccurrenceRepository {

    // The occurrence first, ON CONFLICT DO NOTHING: when the schedule already has its live future, the
    // statement inserts nothing at all and raises nothing (a failed insert would abort the caller's
    // transaction: for chaining, the admission). Then the partition rows in lock order (a lane's gate
    // row first), the occurrence counted as scheduled, then the staged row under the occurrence's id,
    // due at its run time (past or not: the tick promotes it), aged as STAGE_TAIL ages, expiring its deadline after
    // its run time (null: never).
    private static final Sql STAGE = Sql.of("""
            WITH occ AS (
                INSERT INTO dispatch.schedule_occurrences AS o (schedule_id, schedule_version, kind, run_at, submission_id, overdue_seq, snapshot)
                VALUES (:schedule, :version, :kind, :runAt, nextval('dispatch.submission_id_seq'), :overdueSeq, :snapshot::jsonb)
                ON CONFLICT (schedule_id) WHERE state = 'future' AND kind = 'grid' DO NOTHING
                RETURNING o.submission_id, o.run_at),
            place AS (
                SELECT :policy::text AS policy, :key::text AS k, :lane::text AS l, :context::jsonb AS c, :shard::text AS sh),
            parts AS (
                INSERT INTO dispatch.partitions AS p (policy_name, partition_key, lane, context, context_updated_at, pending_count,
                                                      scheduled_count, top_priority, paused, shard)
                SELECT place.policy, place.k, x.lane, place.c, clock_timestamp(), 0, CASE WHEN x.lane = place.l THEN 1 ELSE 0 END, 0,
                       EXISTS (SELECT 1 FROM dispatch.policies WHERE name = place.policy AND paused_at IS NOT NULL), place.sh
                  FROM occ, place, (SELECT DISTINCT unnest(ARRAY['', (SELECT l FROM place)]) AS lane) x
                 ORDER BY x.lane COLLATE "C"
                ON CONFLICT (policy_name, partition_key, lane) DO UPDATE
                   SET context = EXCLUDED.context,
                       context_updated_at = EXCLUDED.context_updated_at,
                       shard = EXCLUDED.shard,
                       scheduled_count = p.scheduled_count + EXCLUDED.scheduled_count
                RETURNING p.id, p.lane)
            INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, submitted_by, staged_at, priority, due_at,
                                              next_age_at, age_every_ms, age_step, age_cap, schedule_id, expires_at)
            SELECT occ.submission_id, parts.id, :jobName, :parameters::jsonb, :submittedBy, clock_timestamp(), a.priority, occ.run_at,
                   CASE WHEN a.every IS NOT NULL AND a.priority < a.cap THEN occ.run_at + make_interval(secs => a.every / 1000.0) END,
                   a.every, a.step, a.cap, :schedule,
                   occ.run_at + make_interval(secs => :deadlineMs::bigint / 1000.0)
              FROM occ
              JOIN parts ON parts.lane = (SELECT l FROM place)
             CROSS JOIN (SELECT :priority::int AS priority, :ageEveryMs::bigint AS every, :ageStep::int AS step, :ageCap::int AS cap) a
            RETURNING id
            """);

    // Chaining: the occurrences among the jobs an admission takes become admitted (only from future: a
    // restarted execution of an occurrence never chains twice), with their first execution. One of a fixed-delay
    // schedule (ADR 0054) now awaits its job's end for good, and a follower of kind 'schedule' makes that end call
    // the end hook (ADR 0051), which stages the next. The admission holds the occurrence's partition, which an
    // editor locks first, so the schedule's mode read here is the one its future was staged under.
    private static final Sql ADMITTED = Sql.of("""
            WITH taken AS (
                UPDATE dispatch.schedule_occurrences o
                   SET state = 'admitted', ended_at = clock_timestamp(), execution_id = x.execution_id,
                       awaits_end = EXISTS (SELECT 1 FROM dispatch.schedules s WHERE s.id = o.schedule_id AND s.delay_ms IS NOT NULL)
                  FROM unnest(:submissions::bigint[], :executions::bigint[]) AS x(submission_id, execution_id)
                 WHERE o.submission_id = x.submission_id AND o.state = 'future'
                RETURNING o.schedule_id, o.kind, o.run_at, o.overdue_seq, o.schedule_version, o.awaits_end, o.submission_id,
                          o.snapshot ->> 'job' AS job),
            followed AS (
                INSERT INTO dispatch.followers (after_submission, kind, on_end, job_name, job_parameters, spec)
                SELECT submission_id, 'schedule', 'any', coalesce(job, ''), '{}'::jsonb, '{}'::jsonb FROM taken WHERE awaits_end)
            SELECT schedule_id, kind, run_at, overdue_seq, schedule_version, awaits_end FROM taken
            """);

    // A fixed-delay occurrence's job has ended for good (the end hook, in the transaction that records the end):
    // once, whoever comes first of the end and the watchdog's GONE below (both update this row where it still awaits).
    private static final Sql END_RUN = Sql.of("""
            UPDATE dispatch.schedule_occurrences SET awaits_end = false, finished_at = clock_timestamp()
             WHERE submission_id = :submission AND awaits_end
            RETURNING schedule_id, schedule_version
            """);

    // Fixed-delay occurrences awaiting an end their job can no longer reach: neither staged (a retry waiting) nor in
    // flight, as when an operator discarded a staged retry. They count as ended now; their followers are settled.
    private static final Sql GONE = Sql.of("""
            WITH gone AS (
                UPDATE dispatch.schedule_occurrences o SET awaits_end = false, finished_at = clock_timestamp()
                 WHERE o.schedule_id = :schedule AND o.awaits_end
                   AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs f WHERE f.submission_id = o.submission_id)
                RETURNING o.submission_id)
            UPDATE dispatch.followers f SET state = 'skipped', decided_at = clock_timestamp(), detail = 'left without an end'
              FROM gone
             WHERE f.after_submission = gone.submission_id AND f.kind = 'schedule' AND f.state = 'waiting'
            """);

    // The occurrence of a fixed-delay schedule that runs (or waits for a retry): while there is one, nothing else is live.
    private static final Sql RUNNING = Sql.of("""
            SELECT submission_id FROM dispatch.schedule_occurrences WHERE schedule_id = :schedule AND awaits_end
            """);

    // Where a fixed-delay schedule's next run is counted from: its last end, whatever version ran.
    private static final Sql LAST_END = Sql.of("""
            SELECT max(finished_at) FROM dispatch.schedule_occurrences WHERE schedule_id = :schedule
            """);

    // Run now for a fixed-delay schedule: its staged future becomes due at once (the tick promotes it), so it still
    // is the one live run; one already waiting keeps its place.
    private static final Sql DUE_NOW = Sql.of("""
            WITH occ AS (
                UPDATE dispatch.schedule_occurrences SET run_at = least(run_at, statement_timestamp())
                 WHERE submission_id = :submission AND state = 'future'
                RETURNING submission_id)
            UPDATE dispatch.staged_jobs j SET due_at = least(j.due_at, statement_timestamp())
              FROM occ
             WHERE j.id = occ.submission_id AND j.due_at IS NOT NULL
            """);

    private static final Sql FUTURE = Sql.of("""
            SELECT schedule_id, kind, run_at, overdue_seq, schedule_version FROM dispatch.schedule_occurrences
             WHERE submission_id = :submission AND state = 'future'
            """);

    private static final Sql END = Sql.of("""
            UPDATE dispatch.schedule_occurrences SET state = :state, reason = :reason, ended_at = clock_timestamp()
             WHERE submission_id = :submission AND state = 'future'
            """);

    // Futures whose staged row an operator drained (a partition or a whole policy): they will never run.
    // Row by row under the occurrence's lock, so one an admission is taking right now (its staged row
    // deleted, its state not yet committed) is waited for and then left alone.
    private static final Sql DRAINED = Sql.of("""
            UPDATE dispatch.schedule_occurrences o SET state = 'skipped', reason = 'drained', ended_at = clock_timestamp()
             WHERE o.schedule_id = :schedule AND o.state = 'future'
               AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
            """);

    private static final Sql LIVE = Sql.of("""
            SELECT o.submission_id, o.run_at, o.overdue_seq, j.partition_id
              FROM dispatch.schedule_occurrences o
              LEFT JOIN dispatch.staged_jobs j ON j.id = o.submission_id
             WHERE o.schedule_id = :schedule AND o.state = 'future' AND o.kind = 'grid'
            """);

    // Where a new version's grid continues from: its last grid occurrence that ran or was skipped.
    private static final Sql LAST_GRID = Sql.of("""
            SELECT max(run_at) FROM dispatch.schedule_occurrences
             WHERE schedule_id = :schedule AND schedule_version = :version AND kind = 'grid' AND state IN ('admitted', 'skipped')
            """);

    @Inject
    Jdbc jdbc;

    /** Where and how an occurrence is staged: the partition (as a submission of its parameters would go) and the job. */
    public record Placement(String policyName, String partitionKey, String lane, String contextJson, String shard, String jobName,
                            String parametersJson, String submittedBy, int priority, Long ageEveryMillis, Integer ageStep,
                            Integer ageCap, Long deadlineMillis) {
    }

    /**
     * Stages an occurrence: {@code grid} ones only when the schedule has no live future (the index
     * decides, atomically); {@code extra} ones always.
     *
     * @return its submission id; empty when a live future already exists
     */
    public Optional<Long> stage(long scheduleId, int version, String kind, Instant runAt, int overdueSeq, String snapshotJson,
                                Placement p) {
        List<Long> ids = jdbc.query(STAGE, Params.of().bigint("schedule", scheduleId).integer("version", version).text("kind", kind)
                .timestamp("runAt", runAt).integer("overdueSeq", overdueSeq).text("snapshot", snapshotJson)
                .text("policy", p.policyName()).text("key", p.partitionKey()).text("lane", p.lane()).text("context", p.contextJson())
                .text("shard", p.shard()).text("jobName", p.jobName()).text("parameters", p.parametersJson())
                .text("submittedBy", p.submittedBy()).integer("priority", p.priority()).bigint("ageEveryMs", p.ageEveryMillis())
                .integer("ageStep", p.ageStep()).integer("ageCap", p.ageCap()).bigint("deadlineMs", p.deadlineMillis()),
                rs -> rs.getLong(1));
        return ids.stream().findFirst();
    }

    /** An occurrence as an admission takes it. */
    public record Admitted(long scheduleId, String kind, Instant runAt, int overdueSeq, int version) {
    }

    /** An occurrence an admission took; {@code awaitsEnd}: of a fixed-delay schedule, whose next is staged at its end. */
    public record Taken(Admitted occurrence, boolean awaitsEnd) {
    }

    /** Marks the future occurrences among these submissions admitted with their executions. */
    public List<Taken> admitted(List<Long> submissionIds, List<Long> executionIds) {
        return jdbc.query(ADMITTED, Params.of().longs("submissions", submissionIds).longs("executions", executionIds),
                rs -> new Taken(new Admitted(rs.getLong(1), rs.getString(2), Jdbc.instant(rs.getTimestamp(3)), rs.getInt(4), rs.getInt(5)),
                        rs.getBoolean(6)));
    }

    /** Records that a fixed-delay occurrence's job ended for good. @return its schedule, empty when already recorded */
    public Optional<Long> endRun(long submissionId) {
        return jdbc.query(END_RUN, Params.of().bigint("submission", submissionId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** Ends the schedule's fixed-delay occurrences whose job left without an end. @return how many followers were settled */
    public int endGone(long scheduleId) {
        return jdbc.update(GONE, Params.of().bigint("schedule", scheduleId));
    }

    /** The submission of the schedule's fixed-delay occurrence whose job has not ended yet. */
    public Optional<Long> running(long scheduleId) {
        return jdbc.query(RUNNING, Params.of().bigint("schedule", scheduleId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** When the schedule's last fixed-delay occurrence ended. */
    public Optional<Instant> lastEnd(long scheduleId) {
        return jdbc.query(LAST_END, Params.of().bigint("schedule", scheduleId), rs -> Jdbc.instant(rs.getTimestamp(1))).stream()
                .filter(java.util.Objects::nonNull).findFirst();
    }

    /** Makes the future staged under this submission due now. */
    public void dueNow(long submissionId) {
        jdbc.update(DUE_NOW, Params.of().bigint("submission", submissionId));
    }

    /** The occurrence staged under this submission id, while it is future. */
    public Optional<Admitted> future(long submissionId) {
        return jdbc.query(FUTURE, Params.of().bigint("submission", submissionId), rs -> new Admitted(rs.getLong(1), rs.getString(2),
                Jdbc.instant(rs.getTimestamp(3)), rs.getInt(4), rs.getInt(5))).stream().findFirst();
    }

    /** Ends a future occurrence as skipped or superseded. @return whether it was future */
    public boolean end(long submissionId, String state, String reason) {
        return jdbc.update(END, Params.of().text("state", state).text("reason", reason).bigint("submission", submissionId)) > 0;
    }

    /** Ends the schedule's futures (grid or extra) whose staged rows are gone. @return how many */
    public int endDrained(long scheduleId) {
        return jdbc.update(DRAINED, Params.of().bigint("schedule", scheduleId));
    }


    public Optional<LiveOccurrence> live(long scheduleId) {
        return jdbc.query(LIVE, Params.of().bigint("schedule", scheduleId), rs -> new LiveOccurrence(rs.getLong(1), Jdbc.instant(rs.getTimestamp(2)),
                rs.getInt(3), (Long) rs.getObject(4))).stream().findFirst();
    }

    public Optional<Instant> lastGridRun(long scheduleId, int version) {
        return jdbc.query(LAST_GRID, Params.of().bigint("schedule", scheduleId).integer("version", version), rs -> Jdbc.instant(rs.getTimestamp(1))).stream().filter(java.util.Objects::nonNull).findFirst();
    }
}
