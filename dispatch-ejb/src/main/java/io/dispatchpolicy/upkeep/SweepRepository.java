package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;

/** Deletes what the engine no longer needs; each statement bounded, so one sweep stays short. */
@ApplicationScoped
public class SweepRepository {

    /** Rows per statement. */
    static final int BATCH = 10_000;

    // One node sweeps at a time; the others skip this round.
    private static final Sql LOCK = Sql.of("SELECT pg_try_advisory_xact_lock(7346150342)");

    private static final Sql SAMPLES = Sql.of("""
            DELETE FROM dispatch.tick_samples WHERE id IN (
                SELECT id FROM dispatch.tick_samples WHERE started_at < clock_timestamp() - make_interval(secs => :ageSeconds)
                 LIMIT :limit)
            """);

    private static final Sql MINUTES = Sql.of("""
            DELETE FROM dispatch.partition_minutes WHERE (partition_id, minute) IN (
                SELECT partition_id, minute FROM dispatch.partition_minutes
                 WHERE minute < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit)
            """);

    private static final Sql DENIAL_HISTORY = Sql.of("""
            DELETE FROM dispatch.denial_history WHERE id IN (
                SELECT id FROM dispatch.denial_history WHERE last_at < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit)
            """);

    private static final Sql AUDIT = Sql.of("""
            DELETE FROM dispatch.audit_log WHERE id IN (
                SELECT id FROM dispatch.audit_log WHERE at < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit)
            """);

    private static final Sql ADMISSIONS = Sql.of("""
            DELETE FROM dispatch.admissions WHERE submission_id IN (
                SELECT submission_id FROM dispatch.admissions
                 WHERE admitted_at < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit)
            """);

    // Schedules' ended occurrences, kept as long as admissions are (their history on the schedule's page);
    // the future ones are the schedules' live state and never swept.
    private static final Sql OCCURRENCES = Sql.of("""
            DELETE FROM dispatch.schedule_occurrences WHERE id IN (
                SELECT id FROM dispatch.schedule_occurrences
                 WHERE ended_at < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit)
            """);

    // Idle and empty: nothing staged, scheduled or parked, nothing in flight or dead, no admission for a long time, and
    // every throttle bucket full again (lanes: see below) — so what goes with them (fairness history, adaptive caps) is
    // state whose loss admits nothing a gate would have denied.
    private static final Sql PARTITIONS = Sql.of("""
            WITH idle AS MATERIALIZED (
                SELECT id FROM dispatch.partitions q
                 WHERE q.pending_count = 0 AND q.parked_count = 0 AND q.scheduled_count = 0
                   AND coalesce(q.last_admitted_at, q.created_at) < clock_timestamp() - make_interval(secs => :ageSeconds)
                   AND (q.buckets_full_at IS NULL OR q.buckets_full_at <= clock_timestamp())
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.partition_id = q.id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.gate_id = q.id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.partition_id = q.id)
                   -- a key's gate row stays while any of its lane rows does
                   AND NOT (q.lane = '' AND EXISTS (SELECT 1 FROM dispatch.partitions l WHERE l.policy_name = q.policy_name
                                                    AND l.partition_key = q.partition_key AND l.lane <> ''))
                 LIMIT :limit
                   FOR UPDATE SKIP LOCKED)
            DELETE FROM dispatch.partitions p USING idle WHERE p.id = idle.id
            """);

    // Dead jobs past their retention, oldest first; the sweep logs how many it deleted.
    private static final Sql DEAD = Sql.of("""
            DELETE FROM dispatch.dead_jobs WHERE submission_id IN (
                SELECT submission_id FROM dispatch.dead_jobs
                 WHERE died_at < clock_timestamp() - make_interval(secs => :ageSeconds) ORDER BY died_at LIMIT :limit)
            """);

    // Jobs a submission control discarded (expired, dropped, replaced), kept as long as dead jobs (ADR 0036).
    private static final Sql DISCARDED = Sql.of("""
            DELETE FROM dispatch.discarded_jobs WHERE submission_id IN (
                SELECT submission_id FROM dispatch.discarded_jobs
                 WHERE discarded_at < clock_timestamp() - make_interval(secs => :ageSeconds) ORDER BY discarded_at LIMIT :limit)
            """);

    // Uniqueness and debounce keys their holder no longer holds (ADR 0036): not staged, not running, not
    // completed within the key's window. A slice of the primary key per pass, after the last one's end (a
    // clock hand: no index beyond the primary key, which every keyed submission would pay for). Only keys held
    // for longer than :ageSeconds: a key taken over since this statement's snapshot has a newer held_since, so
    // the re-check of its locked row skips it (its new holder, staged after the snapshot, would look gone).
    private static final Sql KEYS = Sql.of("""
            WITH slice AS MATERIALIZED (
                SELECT policy_name, kind, key FROM dispatch.submission_keys
                 WHERE (policy_name, kind, key) > (:fromPolicy, :fromKind, :fromKey)
                 ORDER BY policy_name, kind, key LIMIT :limit),
            gone AS (
                DELETE FROM dispatch.submission_keys d WHERE d.ctid = ANY (ARRAY(
                    SELECT k.ctid FROM dispatch.submission_keys k JOIN slice USING (policy_name, kind, key)
                     WHERE k.held_since < clock_timestamp() - make_interval(secs => :ageSeconds)
                       AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = k.submission_id)
                       AND NOT EXISTS (SELECT 1 FROM dispatch.admissions a JOIN dispatch.inflight_jobs i ON i.execution_id = a.execution_id
                                        WHERE a.submission_id = k.submission_id)
                       AND (k.window_ms IS NULL OR NOT EXISTS (
                            SELECT 1 FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id
                             WHERE a.submission_id = k.submission_id AND e.batchstatus = 'COMPLETED'
                               AND e.endtime > clock_timestamp() - make_interval(secs => k.window_ms / 1000.0)))
                       FOR UPDATE OF k SKIP LOCKED))
                  AND d.held_since < clock_timestamp() - make_interval(secs => :ageSeconds)
                RETURNING 1)
            SELECT (SELECT count(*) FROM gone), last.policy_name, last.kind, last.key
              FROM (SELECT * FROM slice ORDER BY policy_name DESC, kind DESC, key DESC LIMIT 1) last
             RIGHT JOIN (SELECT 1) one ON true
            """);

    /** Where the keys' sweep goes on from: the last key of the last slice ({@code ""}s: the start). */
    private volatile String[] keysFrom = {"", "", ""};

    private static final Sql ADAPTIVE = Sql.of("""
            DELETE FROM dispatch.adaptive_stats a
             WHERE a.updated_at < clock_timestamp() - make_interval(secs => :ageSeconds)
               AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.gate_id = a.partition_id)
            """);

    // Tenants' count rows no window reaches any more: their newest bucket ended longer ago than the
    // longest window a rule may have (plus a minute). A sequential scan: the table has a row or two per
    // tenant, and an index on newest would cost every submission its HOT update.
    private static final Sql TENANT_COUNTS = Sql.of("""
            DELETE FROM dispatch.tenant_windows WHERE ctid = ANY (ARRAY(
                SELECT ctid FROM dispatch.tenant_windows
                 WHERE to_timestamp((newest + 1) * resolution_s) < clock_timestamp() - make_interval(secs => :ageSeconds) LIMIT :limit))
            """);

    @Inject
    Jdbc jdbc;

    /** Takes this transaction's sweep lock; false when another node is sweeping. */
    public boolean lock() {
        return jdbc.query(LOCK, Params.of(), rs -> rs.getBoolean(1)).get(0);
    }

    public int samplesOlderThan(Duration age) {
        return deleteOlderThan(SAMPLES, age, true);
    }

    /** Per-minute history and denial episodes older than {@code age}. */
    public int historyOlderThan(Duration age) {
        return deleteOlderThan(MINUTES, age, true) + deleteOlderThan(DENIAL_HISTORY, age, true);
    }

    public int auditOlderThan(Duration age) {
        return deleteOlderThan(AUDIT, age, true);
    }

    public int admissionsOlderThan(Duration age) {
        return deleteOlderThan(ADMISSIONS, age, true);
    }

    public int occurrencesOlderThan(Duration age) {
        return deleteOlderThan(OCCURRENCES, age, true);
    }

    public int idlePartitionsOlderThan(Duration age) {
        return deleteOlderThan(PARTITIONS, age, true);
    }

    public int deadJobsOlderThan(Duration age) {
        return deleteOlderThan(DEAD, age, true);
    }

    public int discardedJobsOlderThan(Duration age) {
        return deleteOlderThan(DISCARDED, age, true);
    }

    /**
     * Keys no submission holds any more, held for longer than a minute, among the next slice of keys (from where
     * the last pass stopped; back to the start after the last).
     */
    public int releasedKeys() {
        String[] from = keysFrom;
        Object[] result = jdbc.query(KEYS, Params.of().float8("ageSeconds", 60.0).integer("limit", BATCH)
                        .text("fromPolicy", from[0]).text("fromKind", from[1]).text("fromKey", from[2]),
                rs -> new Object[] {rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4)}).get(0);
        keysFrom = result[1] == null ? new String[] {"", "", ""} : new String[] {(String) result[1], (String) result[2], (String) result[3]};
        return (Integer) result[0];
    }

    public int tenantCountsOutsideEveryWindow() {
        return deleteOlderThan(TENANT_COUNTS, io.dispatchpolicy.spi.Demotion.LONGEST.plusMinutes(1), true);
    }

    public int adaptiveStatsOlderThan(Duration age) {
        return deleteOlderThan(ADAPTIVE, age, false);
    }

    private int deleteOlderThan(Sql sql, Duration age, boolean limited) {
        Params params = Params.of().float8("ageSeconds", age.toMillis() / 1000.0);
        if (limited) {
            params.integer("limit", BATCH);
        }
        return jdbc.update(sql, params);
    }
}
