package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
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
            catch_up, enabled, version, declared_hash, catch_up_cut_from, catch_up_cut_to
            """;

    private static final String BY_NAME = "SELECT " + COLUMNS + " FROM dispatch.schedules WHERE name = ?";

    private static final String BY_ID = "SELECT " + COLUMNS + " FROM dispatch.schedules WHERE id = ?";

    private static final String ALL = "SELECT " + COLUMNS + " FROM dispatch.schedules ORDER BY name";

    // An editor's lock: after the future occurrence's partition (ADR 0012's lock order).
    private static final String LOCK = BY_ID + " FOR UPDATE";

    // Chaining reads the schedule under the lock its new occurrence's foreign key takes anyway: an
    // editor that holds the row is waited for, and the next occurrence is made from what it committed.
    private static final String KEY_SHARE = BY_ID + " FOR KEY SHARE";

    private static final String INSERT = """
            INSERT INTO dispatch.schedules (name, source, job_name, job_parameters, anchor, interval_count, interval_unit, cron, zone,
                                            priority, lane, catch_up, enabled, declared_hash, updated_by)
            VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (name) DO NOTHING
            RETURNING id
            """;

    private static final String UPDATE = """
            UPDATE dispatch.schedules
               SET job_name = ?, job_parameters = ?::jsonb, anchor = ?, interval_count = ?, interval_unit = ?, cron = ?, zone = ?,
                   priority = ?, lane = ?, catch_up = ?, enabled = ?, declared_hash = ?, updated_by = ?,
                   version = version + CASE WHEN ? THEN 1 ELSE 0 END, updated_at = clock_timestamp()
             WHERE id = ?
            """;

    private static final String SET_ENABLED = """
            UPDATE dispatch.schedules SET enabled = ?, updated_by = ?, updated_at = clock_timestamp() WHERE id = ? AND enabled <> ?
            """;

    private static final String DELETE = "DELETE FROM dispatch.schedules WHERE id = ?";

    private static final String CUT = """
            UPDATE dispatch.schedules SET catch_up_cut_from = ?, catch_up_cut_to = ? WHERE id = ?
            """;

    // One watchdog pass at a time cluster-wide; the key is the sweeper's plus one.
    private static final String WATCHDOG_LOCK = "SELECT pg_try_advisory_xact_lock(7346150343)";

    // Enabled schedules with no live future occurrence, or whose live future lost its staged row (an
    // operator drained its partition or policy): the only ones a watchdog pass has work for.
    private static final String OFF_INVARIANTS = """
            SELECT s.id FROM dispatch.schedules s
             WHERE s.enabled
               AND NOT EXISTS (SELECT 1 FROM dispatch.schedule_occurrences o
                                WHERE o.schedule_id = s.id AND o.state = 'future' AND o.kind = 'grid'
                                  AND EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id))
            UNION
            SELECT o.schedule_id FROM dispatch.schedule_occurrences o
             WHERE o.state = 'future' AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs j WHERE j.id = o.submission_id)
            """;

    private static final String NOW = "SELECT statement_timestamp()";

    @Inject
    Jdbc jdbc;

    /** The database's clock: the one that promotes due occurrences, so every node plans with the same now. */
    public Instant now() {
        return jdbc.query(NOW, (c, st) -> { }, rs -> Jdbc.instant(rs.getTimestamp(1))).get(0);
    }

    public Optional<StoredSchedule> named(String name) {
        return one(BY_NAME, (c, st) -> st.setString(1, name));
    }

    public Optional<StoredSchedule> byId(long id) {
        return one(BY_ID, (c, st) -> st.setLong(1, id));
    }

    public List<StoredSchedule> all() {
        return jdbc.query(ALL, (c, st) -> { }, ScheduleRepository::row);
    }

    /** Locks the schedule's row for the rest of the transaction (the caller holds its future's partition first). */
    public Optional<StoredSchedule> lock(long id) {
        return one(LOCK, (c, st) -> st.setLong(1, id));
    }

    /** The schedule as an editor last committed it, held against edits until the transaction ends. */
    public Optional<StoredSchedule> keyShare(long id) {
        return one(KEY_SHARE, (c, st) -> st.setLong(1, id));
    }

    /** @return the new schedule's id; empty when the name is taken */
    public Optional<Long> insert(ScheduleDefinition d, String source, String declaredHash, String user) {
        List<Long> ids = jdbc.query(INSERT, (c, st) -> {
            st.setString(1, d.name());
            st.setString(2, source);
            int next = bindDefinition(st, d, 3);
            st.setBoolean(next++, d.enabled());
            st.setString(next++, declaredHash);
            st.setString(next, user);
        }, rs -> rs.getLong(1));
        return ids.stream().findFirst();
    }

    /**
     * Replaces the definition (the name stays).
     *
     * @param newVersion whether what or when an occurrence runs changed (the live future must be gone)
     */
    public void update(long id, ScheduleDefinition d, boolean newVersion, String declaredHash, String user) {
        jdbc.update(UPDATE, (c, st) -> {
            int next = bindDefinition(st, d, 1);
            st.setBoolean(next++, d.enabled());
            st.setString(next++, declaredHash);
            st.setString(next++, user);
            st.setBoolean(next++, newVersion);
            st.setLong(next, id);
        });
    }

    /** @return whether the flag changed */
    public boolean setEnabled(long id, boolean enabled, String user) {
        return jdbc.update(SET_ENABLED, (c, st) -> {
            st.setBoolean(1, enabled);
            st.setString(2, user);
            st.setLong(3, id);
            st.setBoolean(4, enabled);
        }) > 0;
    }

    public void delete(long id) {
        jdbc.update(DELETE, (c, st) -> st.setLong(1, id));
    }

    /** Remembers the run times a catch-up skipped at its limit, for the console. */
    public void recordCut(long id, Instant from, Instant to) {
        jdbc.update(CUT, (c, st) -> {
            st.setTimestamp(1, Timestamp.from(from));
            st.setTimestamp(2, Timestamp.from(to));
            st.setLong(3, id);
        });
    }

    /** Takes the watchdog's lock for the current transaction; false when another node holds it. */
    public boolean tryWatchdogLock() {
        return jdbc.query(WATCHDOG_LOCK, (c, st) -> { }, rs -> rs.getBoolean(1)).get(0);
    }

    /** Ids of the schedules a watchdog pass has work for. */
    public List<Long> offInvariants() {
        return jdbc.query(OFF_INVARIANTS, (c, st) -> { }, rs -> rs.getLong(1));
    }

    private Optional<StoredSchedule> one(String sql, Jdbc.Binder binder) {
        return jdbc.query(sql, binder, ScheduleRepository::row).stream().findFirst();
    }

    /** Binds job, parameters, anchor, interval, unit, cron, zone, priority, lane, catch-up from {@code first}; @return the next index. */
    private static int bindDefinition(java.sql.PreparedStatement st, ScheduleDefinition d, int first) throws SQLException {
        int i = first;
        st.setString(i++, d.jobName());
        st.setString(i++, JsonCodec.write(d.parameters()));
        st.setTimestamp(i++, d.anchor() == null ? null : Timestamp.from(d.anchor()));
        st.setObject(i++, d.intervalCount(), Types.INTEGER);
        st.setString(i++, d.unit() == null ? null : d.unit().name().toLowerCase(Locale.ROOT));
        st.setString(i++, d.cron());
        st.setString(i++, d.zone().getId());
        st.setObject(i++, d.priority(), Types.INTEGER);
        st.setString(i++, d.lane());
        st.setBoolean(i++, d.catchUp());
        return i;
    }

    private static StoredSchedule row(ResultSet rs) throws SQLException {
        String unit = rs.getString(8);
        ScheduleDefinition d = new ScheduleDefinition(rs.getString(2), rs.getString(4), JsonCodec.readStrings(rs.getString(5)),
                Jdbc.instant(rs.getTimestamp(6)), (Integer) rs.getObject(7),
                unit == null ? null : ScheduleUnit.valueOf(unit.toUpperCase(Locale.ROOT)), rs.getString(9), ZoneId.of(rs.getString(10)),
                (Integer) rs.getObject(11), rs.getString(12), rs.getBoolean(13), rs.getBoolean(14));
        return new StoredSchedule(rs.getLong(1), rs.getString(3), rs.getInt(15), d, rs.getString(16),
                Jdbc.instant(rs.getTimestamp(17)), Jdbc.instant(rs.getTimestamp(18)));
    }
}
