package io.dispatchpolicy.spi;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * A named calendar of excluded times (ADR 0053), in a zone: whole dates, dates every year, whole weekdays and weekly
 * windows. A schedule names it ({@link Schedule.Builder#excluding}) and skips or moves the run times it excludes.
 * Declare one as a CDI producer, as a {@link Schedule}, or in standalone.xml ({@code dispatch.calendar.<name>.*}), or in
 * the console:
 * <pre>{@code
 * @Produces
 * Calendar bankHolidays() {
 *     return Calendar.named("fr-bank-holidays").zone("Europe/Paris")
 *             .yearly(MonthDay.of(1, 1), MonthDay.of(5, 1), MonthDay.of(7, 14), MonthDay.of(12, 25))
 *             .dates(LocalDate.of(2027, 3, 29))                    // Easter Monday 2027
 *             .days(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY)
 *             .window(DayOfWeek.MONDAY, LocalTime.of(22, 0), LocalTime.MIDNIGHT)   // maintenance
 *             .build();
 * }
 * }</pre>
 */
public final class Calendar {

    private final String name;
    private final ZoneId zone;
    private final Set<LocalDate> dates;
    private final Set<MonthDay> yearly;
    private final Set<DayOfWeek> days;
    private final List<Window> windows;

    /** A weekly window: {@code day} from {@code from} (included) to {@code to} (excluded; {@link LocalTime#MIDNIGHT}: the day's end). */
    public record Window(DayOfWeek day, LocalTime from, LocalTime to) {
        public Window {
            Objects.requireNonNull(day, "day");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }
    }

    private Calendar(Builder b) {
        this.name = b.name;
        this.zone = b.zone;
        this.dates = Collections.unmodifiableSet(new TreeSet<>(b.dates));
        this.yearly = Collections.unmodifiableSet(new TreeSet<>(b.yearly));
        this.days = b.days.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(b.days));
        this.windows = List.copyOf(b.windows);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** The zone its dates and times are read in; UTC unless set. */
    public ZoneId zone() {
        return zone;
    }

    public Set<LocalDate> dates() {
        return dates;
    }

    public Set<MonthDay> yearly() {
        return yearly;
    }

    public Set<DayOfWeek> days() {
        return days;
    }

    public List<Window> windows() {
        return windows;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Calendar c && Objects.equals(name, c.name) && zone.equals(c.zone) && dates.equals(c.dates)
                && yearly.equals(c.yearly) && days.equals(c.days) && windows.equals(c.windows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, zone, dates, yearly, days, windows);
    }

    @Override
    public String toString() {
        return "Calendar[" + name + " in " + zone + ": dates " + dates + ", yearly " + yearly + ", days " + days + ", windows " + windows + "]";
    }

    /** Collects a calendar; {@link #build()} checks it with the engine's rules (as standalone.xml and the console). */
    public static final class Builder {
        private final String name;
        private ZoneId zone = ZoneId.of("UTC");
        private final Set<LocalDate> dates = new TreeSet<>();
        private final Set<MonthDay> yearly = new TreeSet<>();
        private final Set<DayOfWeek> days = new TreeSet<>();
        private final List<Window> windows = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** A region id such as {@code Europe/Paris}, or {@code UTC} (the default); fixed offsets are refused. */
        public Builder zone(String zoneId) {
            this.zone = ZoneId.of(Objects.requireNonNull(zoneId, "zone"));
            return this;
        }

        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /** Whole days excluded once. */
        public Builder dates(LocalDate... dates) {
            for (LocalDate d : dates) {
                this.dates.add(Objects.requireNonNull(d, "date"));
            }
            return this;
        }

        /** Whole days excluded every year (a 29 February only in leap years). */
        public Builder yearly(MonthDay... days) {
            for (MonthDay d : days) {
                this.yearly.add(Objects.requireNonNull(d, "yearly date"));
            }
            return this;
        }

        /** Weekdays excluded whole, every week. */
        public Builder days(DayOfWeek... days) {
            for (DayOfWeek d : days) {
                this.days.add(Objects.requireNonNull(d, "day"));
            }
            return this;
        }

        /** A weekly window excluded: {@code day} from {@code from} to {@code to} ({@link LocalTime#MIDNIGHT}: the day's end). */
        public Builder window(DayOfWeek day, LocalTime from, LocalTime to) {
            windows.add(new Window(day, from, to));
            return this;
        }

        /** @throws ScheduleDeclarationException naming the calendar and what is wrong */
        public Calendar build() {
            Calendar c = new Calendar(this);
            Check.ENGINE.check(c);
            return c;
        }
    }

    /** The engine's check, looked up once (the spi names no engine type). */
    private static final class Check {
        static final ScheduleCheck ENGINE = ServiceLoader.load(ScheduleCheck.class, Calendar.class.getClassLoader())
                .findFirst().orElseThrow(() -> new IllegalStateException(
                        "No " + ScheduleCheck.class.getName() + " found: the Dispatch Policy engine is not on the class path"));
    }
}
