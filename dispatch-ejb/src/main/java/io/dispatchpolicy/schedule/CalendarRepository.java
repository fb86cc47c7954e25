package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.ExclusionCalendar;
import io.dispatchpolicy.domain.schedule.StoredCalendar;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The calendars table (ADR 0053): each calendar's fields as canonical text, its source and declaration. */
@ApplicationScoped
public class CalendarRepository {

    private static final String COLUMNS = "name, source, zone, dates, yearly, days, windows, declared_hash FROM dispatch.calendars";

    private static final Sql BY_NAME = Sql.of("SELECT " + COLUMNS + " WHERE name = :name");

    private static final Sql ALL = Sql.of("SELECT " + COLUMNS + " ORDER BY name");

    // A change to a calendar waits for (and holds off) another change to it: the schedules naming it are restaged after it.
    private static final Sql LOCK = Sql.of("SELECT " + COLUMNS + " WHERE name = :name FOR UPDATE");

    private static final Sql UPSERT = Sql.of("""
            INSERT INTO dispatch.calendars AS c (name, source, zone, dates, yearly, days, windows, declared_hash, updated_by)
            VALUES (:name, :source, :zone, :dates, :yearly, :days, :windows, :hash, :user)
            ON CONFLICT (name) DO UPDATE
               SET zone = EXCLUDED.zone, dates = EXCLUDED.dates, yearly = EXCLUDED.yearly, days = EXCLUDED.days,
                   windows = EXCLUDED.windows, declared_hash = EXCLUDED.declared_hash, updated_by = EXCLUDED.updated_by,
                   updated_at = clock_timestamp()
             WHERE c.source = EXCLUDED.source
            RETURNING name
            """);

    private static final Sql DELETE = Sql.of("""
            DELETE FROM dispatch.calendars c WHERE name = :name
               AND NOT EXISTS (SELECT 1 FROM dispatch.schedules s WHERE s.calendar = c.name)
            """);

    private static final Sql USED_BY = Sql.of("SELECT id FROM dispatch.schedules WHERE calendar = :name ORDER BY name");

    private static final Sql USED_BY_NAMES = Sql.of("SELECT name FROM dispatch.schedules WHERE calendar = :name ORDER BY name");

    @Inject
    Jdbc jdbc;

    public Optional<StoredCalendar> named(String name) {
        return jdbc.query(BY_NAME, Params.of().text("name", name), CalendarRepository::row).stream().findFirst();
    }

    public List<StoredCalendar> all() {
        return jdbc.query(ALL, Params.of(), CalendarRepository::row);
    }

    /** The calendar, locked until the transaction ends. */
    public Optional<StoredCalendar> lock(String name) {
        return jdbc.query(LOCK, Params.of().text("name", name), CalendarRepository::row).stream().findFirst();
    }

    /**
     * Writes the calendar, new or changed, when its name is free or already of this source.
     *
     * @return false when a calendar of another source holds the name
     */
    public boolean put(ExclusionCalendar c, String source, String declaredHash, String user) {
        Map<String, String> t = c.text();
        return !jdbc.query(UPSERT, Params.of().text("name", c.name()).text("source", source).text("zone", t.get("zone"))
                .text("dates", t.get("dates")).text("yearly", t.get("yearly")).text("days", t.get("days"))
                .text("windows", t.get("windows")).text("hash", declaredHash).text("user", user), rs -> rs.getString(1)).isEmpty();
    }

    /** @return false when a schedule names it (or it does not exist) */
    public boolean delete(String name) {
        return jdbc.update(DELETE, Params.of().text("name", name)) > 0;
    }

    /** Ids of the schedules naming the calendar. */
    public List<Long> usedBy(String name) {
        return jdbc.query(USED_BY, Params.of().text("name", name), rs -> rs.getLong(1));
    }

    /** Names of the schedules naming the calendar. */
    public List<String> usedByNames(String name) {
        return jdbc.query(USED_BY_NAMES, Params.of().text("name", name), rs -> rs.getString(1));
    }

    private static StoredCalendar row(ResultSet rs) throws SQLException {
        ExclusionCalendar c = ExclusionCalendar.parse(rs.getString(1), Map.of("zone", rs.getString(3), "dates", rs.getString(4),
                "yearly", rs.getString(5), "days", rs.getString(6), "windows", rs.getString(7)));
        return new StoredCalendar(c, rs.getString(2), rs.getString(8));
    }
}
