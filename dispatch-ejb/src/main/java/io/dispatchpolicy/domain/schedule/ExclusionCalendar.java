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

    // ------------------------------------------------------------------ declarations (code, standalone.xml, console)

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");
    private static final java.time.format.DateTimeFormatter MONTH_DAY = java.time.format.DateTimeFormatter.ofPattern("MM-dd");
    private static final java.time.format.DateTimeFormatter TIME = java.time.format.DateTimeFormatter.ofPattern("HH:mm");

    /** The fields as standalone.xml ({@code dispatch.calendar.<name>.<field>}), the console and the database name them. */
    public static final List<String> FIELDS = List.of("zone", "dates", "yearly", "days", "windows");

    /** A calendar declared in code, as the engine models it. @throws io.dispatchpolicy.spi.ScheduleDeclarationException */
    public static ExclusionCalendar of(io.dispatchpolicy.spi.Calendar c) {
        if (c.name() == null) {
            throw refused(null, "name is required");
        }
        List<Window> windows = new java.util.ArrayList<>();
        for (io.dispatchpolicy.spi.Calendar.Window w : c.windows()) {
            windows.add(window(c.name(), w.day(), w.from(), w.to()));
        }
        return new ExclusionCalendar(c.name(), c.zone(), c.dates(), c.yearly(), c.days(), windows).validate();
    }

    /**
     * A calendar from its text fields (standalone.xml, the console's form, the database): {@code zone} a region id (blank:
     * UTC); {@code dates} {@code 2027-01-01, 2027-05-01}; {@code yearly} {@code 01-01, 12-25}; {@code days}
     * {@code SATURDAY, SUNDAY} (or {@code sat, sun}); {@code windows} {@code MONDAY 22:00-24:00, FRIDAY 12:00-13:00}. Each
     * list is comma-separated; a missing or blank field is empty.
     *
     * @throws io.dispatchpolicy.spi.ScheduleDeclarationException naming the calendar, the field and the value
     */
    public static ExclusionCalendar parse(String name, java.util.Map<String, String> fields) {
        if (name == null) {
            throw refused(null, "name is required");
        }
        for (String key : fields.keySet()) {
            if (!FIELDS.contains(key)) {
                throw refused(name, "has no field '" + key + "': use " + FIELDS);
            }
        }
        String zoneText = fields.getOrDefault("zone", "");
        ZoneId zone;
        try {
            zone = zoneText.isBlank() ? ScheduleDefinition.UTC : ZoneId.of(zoneText.strip());
        } catch (java.time.DateTimeException e) {
            throw refused(name, "zone '" + zoneText + "' is not a known region id: use one such as Europe/Paris, or UTC");
        }
        Set<LocalDate> dates = new java.util.TreeSet<>();
        for (String d : items(fields.get("dates"))) {
            try {
                dates.add(LocalDate.parse(d));
            } catch (java.time.format.DateTimeParseException e) {
                throw refused(name, "dates: '" + d + "' is not a date like 2027-05-01");
            }
        }
        Set<MonthDay> yearly = new java.util.TreeSet<>();
        for (String d : items(fields.get("yearly"))) {
            try {
                yearly.add(MonthDay.parse("--" + d));
            } catch (java.time.format.DateTimeParseException e) {
                throw refused(name, "yearly: '" + d + "' is not a month and day like 12-25");
            }
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String d : items(fields.get("days"))) {
            days.add(day(name, "days", d));
        }
        List<Window> windows = new java.util.ArrayList<>();
        for (String w : items(fields.get("windows"))) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\S+)\\s+(\\d{1,2}:\\d{2})\\s*-\\s*(\\d{1,2}:\\d{2})").matcher(w);
            if (!m.matches()) {
                throw refused(name, "windows: '" + w + "' is not a weekday and two times like MONDAY 22:00-24:00");
            }
            windows.add(window(name, day(name, "windows", m.group(1)), time(name, w, m.group(2)), time(name, w, m.group(3))));
        }
        return new ExclusionCalendar(name, zone, dates, yearly, days, windows).validate();
    }

    /** The calendar's fields as text, canonical (sorted, weekdays in week order): stored, hashed, shown and edited. */
    public java.util.Map<String, String> text() {
        java.util.Map<String, String> t = new java.util.LinkedHashMap<>();
        t.put("zone", zone.getId());
        t.put("dates", String.join(", ", new java.util.TreeSet<>(dates).stream().map(LocalDate::toString).toList()));
        t.put("yearly", String.join(", ", new java.util.TreeSet<>(yearly).stream().map(MONTH_DAY::format).toList()));
        t.put("days", String.join(", ", days.stream().sorted().map(DayOfWeek::name).toList()));
        t.put("windows", String.join(", ", windows.stream().sorted(java.util.Comparator.comparing(Window::day)
                .thenComparing(Window::from)).map(w -> w.day().name() + " " + TIME.format(w.from()) + "-"
                + (w.to().equals(LocalTime.MIDNIGHT) ? "24:00" : TIME.format(w.to()))).toList()));
        return t;
    }

    /** @return this calendar; @throws io.dispatchpolicy.spi.ScheduleDeclarationException for a bad name or zone */
    public ExclusionCalendar validate() {
        if (!NAME.matcher(name).matches()) {
            throw refused(name, "name is invalid: use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
        }
        if (zone instanceof java.time.ZoneOffset && !zone.equals(java.time.ZoneOffset.UTC)) {
            throw refused(name, "zone '" + zone.getId() + "' is a fixed offset: use a region id such as Europe/Paris, or UTC");
        }
        return this;
    }

    private static List<String> items(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(text.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList();
    }

    private static DayOfWeek day(String name, String field, String text) {
        String t = text.strip().toUpperCase(java.util.Locale.ROOT);
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().equals(t) || t.length() == 3 && d.name().startsWith(t)) {
                return d;
            }
        }
        throw refused(name, field + ": '" + text + "' is not a weekday like SATURDAY or SAT");
    }

    private static LocalTime time(String name, String window, String text) {
        if (text.equals("24:00")) {
            return LocalTime.MIDNIGHT;
        }
        try {
            return LocalTime.parse(text.length() == 4 ? "0" + text : text);
        } catch (java.time.format.DateTimeParseException e) {
            throw refused(name, "windows: '" + window + "' has a time that is none (" + text + "): use 00:00 to 24:00");
        }
    }

    private static Window window(String name, DayOfWeek day, LocalTime from, LocalTime to) {
        try {
            return new Window(day, from, to);
        } catch (IllegalArgumentException e) {
            throw refused(name, "windows: " + day + " " + from + "-" + (to.equals(LocalTime.MIDNIGHT) ? "24:00" : to)
                    + " does not end after it starts (a window lies within one day; 24:00 is the day's end)");
        }
    }

    private static io.dispatchpolicy.spi.ScheduleDeclarationException refused(String name, String what) {
        return new io.dispatchpolicy.spi.ScheduleDeclarationException("Calendar '" + name + "': " + what);
    }
}
