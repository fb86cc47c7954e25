package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The schedules table (ADR 0012): definitions, their version and source, and the watchdog's lock.
 * A schedule's version and enabled flag are referenced by its live future occurrence, so an update
 * that changes either fails while that occurrence lives: callers supersede it first, in the same
 * transaction.
 */
@ApplicationScoped
public class ScheduleRepository {

    private static final String COLUMNS = """
            id, name, source, job_name, job_parameters::text, anchor, interval_count, interval_unit, cron, zone, priority, lane,
            catch_up, enabled, version, declared_hash, catch_up_cut_from, catch_up_cut_to, run_as, deadline_ms, delay_ms, calendar, excluded
            """;

    private static final Sql SELECT = Sql.template("SELECT {{columns}} FROM dispatch.schedules {{which}}").with("columns", COLUMNS);

    private static final Sql BY_NAME = SELECT.with("which", "WHERE name = :name");

    private static final Sql BY_ID = SELECT.with("which", "WHERE id = :id");

    private static final Sql ALL = SELECT.with("which", "ORDER BY name");

    // An editor's lock: after the future occurrence's partition (ADR 0012's lock order).
    private static final Sql LOCK = SELECT.with("which", "WHERE id = :id FOR UPDATE");

    // Chaining reads the schedule under the lock its new occurrence's foreign key takes anyway: an
    // editor that holds the row is waited for, and the next occurrence is made from what it committed.
    private static final Sql KEY_SHARE = SELECT.with("which", "WHERE id = :id FOR KEY SHARE");

    // The definition's columns, as INSERT and UPDATE bind them (definition(...)).
    private static final Sql INSERT = Sql.of("""
            INSERT INTO dispatch.schedules (name, source, job_name, job_parameters, anchor, interval_count, interval_unit, cron, zone,
                                            priority, lane, catch_up, enabled, declared_hash, updated_by, run_as, deadline_ms, delay_ms,
                                            calendar, excluded)
            VALUES (:name, :source, :jobName, :parameters::jsonb, :anchor, :interval, :unit, :cron, :zone, :priority, :lane,
                    :catchUp, :enabled, :declaredHash, :user, :runAs, :deadlineMs, :delayMs, :calendar, :excluded)
            ON CONFLICT (name) DO NOTHING
            RETURNING id
            """);

    private static final Sql UPDATE = Sql.of("""
            UPDATE dispatch.schedules
               SET job_name = :jobName, job_parameters = :parameters::jsonb, anchor = :anchor, interval_count = :interval,
                   interval_unit = :unit, cron = :cron, zone = :zone, priority = :priority, lane = :lane, catch_up = :catchUp,
                   enabled = :enabled, declared_hash = :declaredHash, updated_by = :user, run_as = :runAs, deadline_ms = :deadlineMs,
                   delay_ms = :delayMs, calendar = :calendar, excluded = :excluded,
                   version = version + CASE WHEN :newVersion THEN 1 ELSE 0 END, updated_at = clock_timestamp()
             WHERE id = :id
            """);

    private static final Sql SET_ENABLED = Sql.of("""
            UPDATE dispatch.schedules SET enabled = :enabled, updated_by = :user, updated_at = clock_timestamp()
             WHERE id = :id AND enabled <> :enabled
            """);

    private static final Sql DELETE = Sql.of("DELETE FROM dispatch.schedules WHERE id = :id");

    private static final Sql CUT = Sql.of("""
            UPDATE dispatch.schedules SET catch_up_cut_from = :from, catch_up_cut_to = :to WHERE id = :id
            """);

    // One watchdog pass at a time cluster-wide; the key is the sweeper's plus one.
    private static final Sql WATCHDOG_LOCK = Sql.of("SELECT pg_try_advisory_xact_lock(7346150343)");

    // Enabled schedules with no live future occurrence, or whose live future lost its staged row (an
    // operator drained its partition or policy): the only ones a watchdog pass has work for. A fixed-delay
    // schedule's occurrence is live until its job has ended for good: while it runs (or waits for a retry) the
    // schedule has no future and needs none (its end stages the next). One that awaits an end its job can no
    // longer reach (its retry discarded: neither staged nor in flight) is the watchdog's too.
    private static final Sql OFF_INVARIANTS = Sql.of("""
            SELECT s.id FROM dispatch.schedules s
             WHERE s.enabled
               AND NOT EXISTS (SELECT 1 FROM dispatch.schedule_occurrences o
                                WHERE o.schedule_id = s.id AND o.state = 'future' AND o.kind = 'grid'
                                  AND EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id))
               AND NOT EXISTS (SELECT 1 FROM dispatch.schedule_occurrences o
                                WHERE o.schedule_id = s.id AND o.awaits_end
                                  AND (EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
                                       OR EXISTS (SELECT 1 FROM dispatch.inflight_jobs f WHERE f.submission_id = o.submission_id)))
            UNION
            SELECT o.schedule_id FROM dispatch.schedule_occurrences o
             WHERE o.state = 'future' AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
            UNION
            SELECT o.schedule_id FROM dispatch.schedule_occurrences o
             WHERE o.awaits_end AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
               AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs f WHERE f.submission_id = o.submission_id)
            """);

    private static final Sql NOW = Sql.of("SELECT statement_timestamp()");

    @Inject
    Jdbc jdbc;

    /** The database's clock: the one that promotes due occurrences, so every node plans with the same now. */
    public Instant now() {
        return jdbc.query(NOW, Params.of(), rs -> Jdbc.instant(rs.getTimestamp(1))).get(0);
    }

    public Optional<StoredSchedule> named(String name) {
        return one(BY_NAME, Params.of().text("name", name));
    }

    public Optional<StoredSchedule> byId(long id) {
        return one(BY_ID, Params.of().bigint("id", id));
    }

    public List<StoredSchedule> all() {
        return jdbc.query(ALL, Params.of(), ScheduleRepository::row);
    }

    /** Locks the schedule's row for the rest of the transaction (the caller holds its future's partition first). */
    public Optional<StoredSchedule> lock(long id) {
        return one(LOCK, Params.of().bigint("id", id));
    }

    /** The schedule as an editor last committed it, held against edits until the transaction ends. */
    public Optional<StoredSchedule> keyShare(long id) {
        return one(KEY_SHARE, Params.of().bigint("id", id));
    }

    /** @return the new schedule's id; empty when the name is taken */
    public Optional<Long> insert(ScheduleDefinition d, String source, String declaredHash, String user) {
        List<Long> ids = jdbc.query(INSERT, definition(d, declaredHash, user).text("name", d.name()).text("source", source),
                rs -> rs.getLong(1));
        return ids.stream().findFirst();
    }

    /**
     * Replaces the definition (the name stays).
     *
     * @param newVersion whether what or when an occurrence runs changed (the live future must be gone)
     */
    public void update(long id, ScheduleDefinition d, boolean newVersion, String declaredHash, String user) {
        jdbc.update(UPDATE, definition(d, declaredHash, user).bool("newVersion", newVersion).bigint("id", id));
    }

    /** @return whether the flag changed */
    public boolean setEnabled(long id, boolean enabled, String user) {
        return jdbc.update(SET_ENABLED, Params.of().bool("enabled", enabled).text("user", user).bigint("id", id)) > 0;
    }

    public void delete(long id) {
        jdbc.update(DELETE, Params.of().bigint("id", id));
    }

    /** Remembers the run times a catch-up skipped at its limit, for the console. */
    public void recordCut(long id, Instant from, Instant to) {
        jdbc.update(CUT, Params.of().timestamp("from", from).timestamp("to", to).bigint("id", id));
    }

    /** Takes the watchdog's lock for the current transaction; false when another node holds it. */
    public boolean tryWatchdogLock() {
        return jdbc.query(WATCHDOG_LOCK, Params.of(), rs -> rs.getBoolean(1)).get(0);
    }

    /** Ids of the schedules a watchdog pass has work for. */
    public List<Long> offInvariants() {
        return jdbc.query(OFF_INVARIANTS, Params.of(), rs -> rs.getLong(1));
    }

    private Optional<StoredSchedule> one(Sql sql, Params params) {
        return jdbc.query(sql, params, ScheduleRepository::row).stream().findFirst();
    }

    /** The definition's columns as INSERT and UPDATE name them, with who wrote it and the declaration's hash. */
    private static Params definition(ScheduleDefinition d, String declaredHash, String user) {
        return Params.of().text("jobName", d.jobName()).text("parameters", JsonCodec.write(d.parameters()))
                .timestamp("anchor", d.anchor()).integer("interval", d.intervalCount())
                .text("unit", d.unit() == null ? null : d.unit().name().toLowerCase(Locale.ROOT)).text("cron", d.cron())
                .text("zone", d.zone().getId()).integer("priority", d.priority()).text("lane", d.lane())
                .bool("catchUp", d.catchUp()).bool("enabled", d.enabled()).text("declaredHash", declaredHash).text("user", user)
                .text("runAs", d.runAs()).bigint("deadlineMs", d.deadline() == null ? null : d.deadline().toMillis())
                .bigint("delayMs", d.delay() == null ? null : d.delay().toMillis()).text("calendar", d.calendar())
                .text("excluded", d.excluded() == null ? null : d.excluded().label());
    }

    private static StoredSchedule row(ResultSet rs) throws SQLException {
        String unit = rs.getString(8);
        ScheduleDefinition d = new ScheduleDefinition(rs.getString(2), rs.getString(4), JsonCodec.readStrings(rs.getString(5)),
                Jdbc.instant(rs.getTimestamp(6)), (Integer) rs.getObject(7),
                unit == null ? null : ScheduleUnit.valueOf(unit.toUpperCase(Locale.ROOT)), rs.getString(9), ZoneId.of(rs.getString(10)),
                (Integer) rs.getObject(11), rs.getString(12), rs.getBoolean(13), rs.getBoolean(14), rs.getString(19),
                rs.getObject(20) == null ? null : java.time.Duration.ofMillis(rs.getLong(20)),
                rs.getObject(21) == null ? null : java.time.Duration.ofMillis(rs.getLong(21)), rs.getString(22),
                rs.getString(23) == null ? null : io.dispatchpolicy.spi.Excluded.parse(rs.getString(2), rs.getString(23)));
        return new StoredSchedule(rs.getLong(1), rs.getString(3), rs.getInt(15), d, rs.getString(16),
                Jdbc.instant(rs.getTimestamp(17)), Jdbc.instant(rs.getTimestamp(18)));
    }
}
