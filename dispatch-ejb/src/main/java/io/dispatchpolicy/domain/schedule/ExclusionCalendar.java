package io.dispatchpolicy.domain.schedule;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named calendar of excluded times, in a zone (issue 39, deliverable 4): whole dates (a bank holiday), yearly dates
 * (every 25 December), whole weekdays (weekends) and weekly windows (Monday 00:00–06:00, maintenance). Pure and
 * immutable: every node answers the same. A schedule refers to one by name and either skips an excluded run time or
 * moves it to the first time the calendar allows ({@link ExcludingGrid}).
 *
 * @param days    weekdays excluded whole
 * @param windows weekly windows excluded, each within one day, [from, to) local times ({@code to} 00:00: the day's end)
 */
public record ExclusionCalendar(String name, ZoneId zone, Set<LocalDate> dates, Set<MonthDay> yearly, Set<DayOfWeek> days,
                                List<Window> windows) {

    /** A weekly window excluded: {@code day} from {@code from} (included) to {@code to} (excluded; 00:00 is the day's end). */
    public record Window(DayOfWeek day, LocalTime from, LocalTime to) {
        public Window {
            Objects.requireNonNull(day, "day");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            if (!to.equals(LocalTime.MIDNIGHT) && !to.isAfter(from)) {
                throw new IllegalArgumentException("a window ends after it starts, within its day: " + day + " " + from + "-" + to);
            }
        }

        boolean covers(DayOfWeek d, LocalTime t) {
            return d == day && !t.isBefore(from) && (to.equals(LocalTime.MIDNIGHT) || t.isBefore(to));
        }
    }

    public ExclusionCalendar {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(zone, "zone");
        dates = Set.copyOf(dates == null ? Set.of() : dates);
        yearly = Set.copyOf(yearly == null ? Set.of() : yearly);
        days = days == null || days.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(days));
        windows = List.copyOf(windows == null ? List.of() : windows);
    }

    /** Whether the calendar excludes {@code t}. */
    public boolean excludes(Instant t) {
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        return excludedDay(local.toLocalDate()) || window(local) != null;
    }

    private boolean excludedDay(LocalDate d) {
        return days.contains(d.getDayOfWeek()) || dates.contains(d) || yearly.contains(MonthDay.from(d));
    }

    private Window window(LocalDateTime local) {
        for (Window w : windows) {
            if (w.covers(local.getDayOfWeek(), local.toLocalTime())) {
                return w;
            }
        }
        return null;
    }

    /**
     * The first time at or after {@code t} the calendar allows: across excluded days at {@code t}'s local time of day when
     * {@code keepTimeOfDay} (a 09:00 run on a holiday moves to 09:00 of the next allowed day: the "following business day"
     * rule), else at the start of the next allowed day; an excluded window ends at its end; empty when nothing is allowed
     * within {@code horizonDays}.
     */
    public java.util.Optional<Instant> firstAllowedFrom(Instant t, boolean keepTimeOfDay, int horizonDays) {
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        LocalTime timeOfDay = keepTimeOfDay ? local.toLocalTime() : LocalTime.MIDNIGHT;
        Instant at = t;
        for (int step = 0; step < horizonDays * 8; step++) {
            LocalDateTime l = LocalDateTime.ofInstant(at, zone);
            if (java.time.Duration.between(t, at).toDays() > horizonDays) {
                return java.util.Optional.empty();
            }
            if (excludedDay(l.toLocalDate())) {
                at = LocalTimes.resolve(l.toLocalDate().plusDays(1).atTime(timeOfDay), zone);
                continue;
            }
            Window w = window(l);
            if (w == null) {
                return java.util.Optional.of(at);
            }
            LocalDateTime end = w.to().equals(LocalTime.MIDNIGHT) ? l.toLocalDate().plusDays(1).atStartOfDay() : l.toLocalDate().atTime(w.to());
            Instant next = LocalTimes.resolve(end, zone);
            at = next.isAfter(at) ? next : at.plusSeconds(1);
        }
        return java.util.Optional.empty();
    }
}
