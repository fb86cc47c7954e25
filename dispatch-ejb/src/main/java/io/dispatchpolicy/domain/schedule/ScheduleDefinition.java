package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A recurring schedule: the one model that code declarations ({@code spi.Schedule}), standalone.xml
 * ({@code dispatch.schedule.<name>.*}) and the console all produce, validated by one routine ({@link #validate}).
 * Timing is one of three modes: an anchored interval ({@code anchor}, {@code intervalCount}, {@code unit}), a
 * {@code cron} expression, or a fixed {@code delay} after the previous run ended (ADR 0054) — never two.
 *
 * <p>The constructor only normalizes (parameters copied and sorted, cron whitespace collapsed, job name without
 * {@code .xml}, zone defaulting to UTC), so a definition read back from the database compares equal to the one
 * written; {@link #validate} says what is wrong.
 *
 * @param name          the schedule's unique name, a letter or digit then letters, digits, '_', '.' or '-'
 * @param jobName       the job XML name each occurrence starts, without {@code .xml}
 * @param parameters    the job parameters of each occurrence
 * @param anchor        anchored mode: the first run time, from which every run is counted
 * @param intervalCount anchored mode: units between runs, at least 1
 * @param unit          anchored mode: the unit of the interval
 * @param cron          cron mode: 5 fields, or 6 with leading seconds
 * @param zone          the zone local times and wall-clock units count in: a region id or UTC (default)
 * @param priority      overrides the governing policy's priority for occurrences; null: the policy decides
 * @param lane          overrides the governing policy's lane for occurrences; null: the policy decides
 * @param catchUp       after an outage, run the missed points one by one (up to {@link Chain#CATCH_UP_LIMIT})
 * @param enabled       whether the schedule has a live future occurrence
 * @param runAs         who each occurrence runs as; null: nobody in particular
 * @param deadline      how long after its run time an occurrence may still be admitted; past it the occurrence is
 *                      EXPIRED, never runs, and the next one is staged (ADR 0036); null: its policy's
 *                      {@code expireAfter}, counted from the run time, else none
 * @param delay         fixed-delay mode: each run is due this long after the previous one ended for good (after its
 *                      retries), never two live at once; 1 second to {@link #MAX_DELAY}
 * @param calendar      the name of a calendar whose excluded times the schedule does not run at (ADR 0053); null: none
 * @param excluded      what an excluded run time becomes: skipped (the default with a calendar) or moved
 */
public record ScheduleDefinition(String name, String jobName, Map<String, String> parameters, Instant anchor,
                                 Integer intervalCount, ScheduleUnit unit, String cron, ZoneId zone,
                                 Integer priority, String lane, boolean catchUp, boolean enabled, String runAs,
                                 java.time.Duration deadline, java.time.Duration delay, String calendar,
                                 io.dispatchpolicy.spi.Excluded excluded) implements java.io.Serializable {

    /** The longest fixed delay between a run's end and the next run. */
    public static final java.time.Duration MAX_DELAY = java.time.Duration.ofDays(366);

    /** The longest deadline a schedule may give its occurrences, as a policy's {@code expireAfter}. */
    public static final java.time.Duration MAX_DEADLINE = Policy.MAX_EXPIRY;

    public static final ZoneId UTC = ZoneId.of("UTC");

    /** A cron expression must match at least once in this many years from {@link #CRON_CHECK_FROM}. */
    public static final int CRON_CHECK_YEARS = 10;

    /**
     * Where the cron check starts, in the schedule's zone. Fixed rather than "now" so that validation gives the
     * same verdict on every node and on every day, and a declaration valid at one deployment stays valid.
     */
    public static final LocalDateTime CRON_CHECK_FROM = LocalDateTime.of(2000, 1, 1, 0, 0);

    // the rule Policy and Lane use for their names, so every name the console and settings show looks alike
    private static final Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");
    private static final String NAME_RULE = "use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit";

    /**
     * A definition's fields as the snapshot and version checks name them: the standalone.xml knob names, and
     * {@code parameters} for the {@code param.<key>} knobs.
     * Listed once here, so the audit snapshot and the version rule cannot disagree about a field.
     */
    public enum Field {
        NAME("name", false, ScheduleDefinition::name),
        JOB("job", true, ScheduleDefinition::jobName),
        PARAMETERS("parameters", true, ScheduleDefinition::parameters),
        ANCHOR("anchor", true, d -> d.anchor() == null ? null : d.anchor().toString()),
        INTERVAL("interval", true, ScheduleDefinition::intervalCount),
        UNIT("unit", true, d -> d.unit() == null ? null : d.unit().label()),
        CRON("cron", true, ScheduleDefinition::cron),
        ZONE("zone", true, d -> d.zone().getId()),
        // priority and lane are copied into the future's staged row, so changing them must replace it
        PRIORITY("priority", true, ScheduleDefinition::priority),
        LANE("lane", true, ScheduleDefinition::lane),
        // catch-up only decides how the chain continues when an occurrence is admitted, which reads the current
        // definition then; the future already staged is the same either way
        CATCH_UP("catch-up", false, ScheduleDefinition::catchUp),
        // the live future's foreign key holds enabled itself: a disabled schedule has no future to replace
        ENABLED("enabled", false, ScheduleDefinition::enabled),
        // who each occurrence runs as (ADR 0024): copied into the future's staged row, like priority and lane
        RUN_AS("run-as", true, ScheduleDefinition::runAs),
        // the future's staged row carries its deadline (expires_at), so changing it must replace the future
        DEADLINE("deadline", true, d -> d.deadline() == null ? null : d.deadline().toSeconds()),
        // the timing of a fixed-delay schedule (its future's due time is counted from it)
        DELAY("delay", true, d -> d.delay() == null ? null : d.delay().toSeconds()),
        // the calendar changes which run times exist (its own changes restage the futures of the schedules naming it)
        CALENDAR("calendar", true, ScheduleDefinition::calendar),
        EXCLUDED("excluded", true, d -> d.excluded() == null ? null : d.excluded().label());

        private final String key;
        private final boolean occurrence;
        private final Function<ScheduleDefinition, Object> value;

        Field(String key, boolean occurrence, Function<ScheduleDefinition, Object> value) {
            this.key = key;
            this.occurrence = occurrence;
            this.value = value;
        }

        public String key() {
            return key;
        }

        /** True when a change to this field changes what or when an occurrence runs (a new version). */
        public boolean occurrence() {
            return occurrence;
        }

        /** The field's value in its snapshot form (strings, numbers, booleans, a sorted map); null when unset. */
        public Object valueIn(ScheduleDefinition definition) {
            return value.apply(definition);
        }
    }

    /** The fields whose change raises a schedule's version. */
    public static final Set<Field> OCCURRENCE_FIELDS = Collections.unmodifiableSet(EnumSet.copyOf(
            EnumSet.allOf(Field.class).stream().filter(Field::occurrence).toList()));

    public ScheduleDefinition {
        parameters = copyOf(name, parameters);
        jobName = jobName == null ? null : Policy.jobName(jobName.strip());
        cron = CronGrid.normalize(cron);
        // an empty lane setting means "no override", as an absent one does
        lane = lane == null || lane.isBlank() ? null : lane.strip();
        zone = zone == null || ZoneOffset.UTC.equals(zone) ? UTC : zone;
        runAs = runAs == null || runAs.isBlank() ? null : runAs.strip();
        calendar = calendar == null || calendar.isBlank() ? null : calendar.strip();
        excluded = calendar != null && excluded == null ? io.dispatchpolicy.spi.Excluded.SKIP : excluded;
    }

    /** A definition without a calendar. */
    public ScheduleDefinition(String name, String jobName, Map<String, String> parameters, Instant anchor,
                              Integer intervalCount, ScheduleUnit unit, String cron, ZoneId zone,
                              Integer priority, String lane, boolean catchUp, boolean enabled, String runAs,
                              java.time.Duration deadline, java.time.Duration delay) {
        this(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp, enabled, runAs, deadline,
                delay, null, null);
    }

    /** A definition that names no identity: its occurrences run as nobody in particular. */
    public ScheduleDefinition(String name, String jobName, Map<String, String> parameters, Instant anchor,
                              Integer intervalCount, ScheduleUnit unit, String cron, ZoneId zone,
                              Integer priority, String lane, boolean catchUp, boolean enabled) {
        this(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp, enabled, null, null);
    }

    /** A definition without a deadline of its own. */
    public ScheduleDefinition(String name, String jobName, Map<String, String> parameters, Instant anchor,
                              Integer intervalCount, ScheduleUnit unit, String cron, ZoneId zone,
                              Integer priority, String lane, boolean catchUp, boolean enabled, String runAs) {
        this(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp, enabled, runAs, null);
    }

    /** A definition on a grid (anchored or cron), not a fixed delay. */
    public ScheduleDefinition(String name, String jobName, Map<String, String> parameters, Instant anchor,
                              Integer intervalCount, ScheduleUnit unit, String cron, ZoneId zone,
                              Integer priority, String lane, boolean catchUp, boolean enabled, String runAs,
                              java.time.Duration deadline) {
        this(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp, enabled, runAs, deadline,
                null);
    }

    /** This definition run as {@code user} (a console-created schedule runs as whoever created it). */
    public ScheduleDefinition runningAs(String user) {
        return new ScheduleDefinition(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp,
                enabled, user, deadline, delay, calendar, excluded);
    }

    /** This definition with {@code deadline} for its occurrences (null: none of its own). */
    public ScheduleDefinition withDeadline(java.time.Duration deadline) {
        return new ScheduleDefinition(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp,
                enabled, runAs, deadline, delay, calendar, excluded);
    }

    /** This definition in fixed-delay mode: {@code delay} after each run's end, its grid fields cleared. */
    public ScheduleDefinition afterEnd(java.time.Duration delay) {
        return new ScheduleDefinition(name, jobName, parameters, null, null, null, null, zone, priority, lane, catchUp, enabled, runAs,
                deadline, delay, calendar, excluded);
    }

    /** This definition skipping or moving the run times {@code calendar} excludes (null: none). */
    public ScheduleDefinition excluding(String calendar, io.dispatchpolicy.spi.Excluded excluded) {
        return new ScheduleDefinition(name, jobName, parameters, anchor, intervalCount, unit, cron, zone, priority, lane, catchUp, enabled,
                runAs, deadline, delay, calendar, excluded);
    }

    /** A schedule declared in code, as the engine models it (not yet validated). */
    public static ScheduleDefinition of(Schedule declared) {
        return new ScheduleDefinition(declared.name(), declared.jobName(), declared.parameters(), declared.anchor().orElse(null),
                declared.interval().isPresent() ? declared.interval().getAsInt() : null, declared.unit().orElse(null),
                declared.cron().orElse(null), declared.zone(),
                declared.priority().isPresent() ? declared.priority().getAsInt() : null, declared.lane().orElse(null),
                declared.catchUp(), declared.enabled(), declared.runAs().orElse(null), declared.deadline().orElse(null),
                declared.delay().orElse(null), declared.calendar().orElse(null), declared.excluded().orElse(null));
    }

    /** As the application reads it back (DispatchSchedules#list): the declaration this definition is of. */
    public Schedule toSchedule() {
        Schedule.Builder b = Schedule.named(name).job(jobName).zone(zone);
        parameters.forEach(b::parameter);
        if (cron != null) {
            b.cron(cron);
        } else if (delay != null) {
            b.afterEnd(delay);
        } else {
            b.every(intervalCount, unit).from(anchor);
        }
        if (priority != null) {
            b.priority(priority);
        }
        if (lane != null) {
            b.lane(lane);
        }
        if (runAs != null) {
            b.runAs(runAs);
        }
        if (deadline != null) {
            b.deadline(deadline);
        }
        if (calendar != null) {
            b.excluding(calendar, excluded);
        }
        if (!enabled) {
            b.disabled();
        }
        if (catchUp) {
            b.catchUp();
        }
        return b.build();
    }

    private static Map<String, String> copyOf(String name, Map<String, String> parameters) {
        if (parameters == null || parameters.isEmpty()) {
            return Map.of();
        }
        Map<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new ScheduleDeclarationException(prefix(name) + "param." + e.getKey()
                        + " is null: a parameter needs a name and a value");
            }
            sorted.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(sorted);
    }

    /** True in cron mode, false in anchored and fixed-delay modes. */
    public boolean isCron() {
        return cron != null;
    }

    /** True in fixed-delay mode: no grid, each run due {@link #delay} after the previous one ended. */
    public boolean isFixedDelay() {
        return delay != null;
    }

    /**
     * Checks the definition; the message names the schedule and the field, as {@code Schedule 'nightly': unit
     * is required …}.
     *
     * @return this definition, valid
     * @throws ScheduleDeclarationException at the first problem found
     */
    public ScheduleDefinition validate() {
        String at = prefix(name);
        if (name == null || !NAME_PATTERN.matcher(name).matches()) {
            throw new ScheduleDeclarationException(at + "name is invalid: " + NAME_RULE);
        }
        if (jobName == null || jobName.isBlank()) {
            throw new ScheduleDeclarationException(at + "job is required: the job XML name each occurrence starts");
        }
        for (String key : parameters.keySet()) {
            if (key.isBlank()) {
                throw new ScheduleDeclarationException(at + "param has a blank name");
            }
        }
        boolean anchored = anchor != null || intervalCount != null || unit != null;
        if (cron != null && anchored) {
            throw new ScheduleDeclarationException(at + "cron cannot be combined with anchor, interval or unit: "
                    + "a schedule runs either on a cron expression or every interval from an anchor");
        }
        if (delay != null && (cron != null || anchored)) {
            throw new ScheduleDeclarationException(at + "delay cannot be combined with " + (cron != null ? "cron" : "anchor, interval or unit")
                    + ": a fixed-delay schedule runs a delay after its previous run ended, not on a grid");
        }
        if (cron == null && !anchored && delay == null) {
            throw new ScheduleDeclarationException(at + "cron, anchor with interval and unit, or delay is required: "
                    + "it says when the schedule runs");
        }
        String zoneProblem = zoneProblem(zone);
        if (zoneProblem != null) {
            throw new ScheduleDeclarationException(at + "zone " + zoneProblem);
        }
        if (anchored) {
            validateAnchored(at);
        } else if (cron != null) {
            validateCron(at);
        } else {
            validateDelay(at);
        }
        if (calendar != null && !NAME_PATTERN.matcher(calendar).matches()) {
            throw new ScheduleDeclarationException(at + "calendar '" + calendar + "' is invalid: " + NAME_RULE);
        }
        if (calendar == null && excluded != null) {
            throw new ScheduleDeclarationException(at + "excluded (" + excluded.label() + ") needs a calendar: "
                    + "it says what becomes of the run times the calendar excludes");
        }
        if (lane != null && !NAME_PATTERN.matcher(lane).matches()) {
            throw new ScheduleDeclarationException(at + "lane '" + lane + "' is invalid: " + NAME_RULE);
        }
        if (deadline != null && (deadline.compareTo(java.time.Duration.ofSeconds(1)) < 0 || deadline.compareTo(MAX_DEADLINE) > 0)) {
            throw new ScheduleDeclarationException(at + "deadline must be 1 second to " + MAX_DEADLINE.toDays()
                    + " days after each run time (was " + deadline.toSeconds() + " s)");
        }
        return this;
    }

    private void validateDelay(String at) {
        if (delay.compareTo(java.time.Duration.ofSeconds(1)) < 0 || delay.compareTo(MAX_DELAY) > 0) {
            throw new ScheduleDeclarationException(at + "delay must be 1 second to " + MAX_DELAY.toDays()
                    + " days after the previous run ended (was " + delay.toSeconds() + " s)");
        }
        if (delay.toNanosPart() != 0) {
            // a tick admits at a second's grain at best; a fraction would also be lost in standalone.xml's whole seconds
            throw new ScheduleDeclarationException(at + "delay must be whole seconds (was " + delay + ")");
        }
        if (catchUp) {
            throw new ScheduleDeclarationException(at + "catch-up has no meaning with a delay: a fixed-delay schedule never misses a "
                    + "run, it runs once more a delay after the last one ended");
        }
    }

    private void validateAnchored(String at) {
        if (intervalCount == null) {
            throw new ScheduleDeclarationException(at + "interval is required with an anchor: a whole number >= 1");
        }
        if (intervalCount < 1) {
            throw new ScheduleDeclarationException(at + "interval must be >= 1 (was " + intervalCount + ")");
        }
        if (unit == null) {
            throw new ScheduleDeclarationException(at + "unit is required with an interval: one of " + ScheduleUnit.NAMES);
        }
        if (anchor == null) {
            throw new ScheduleDeclarationException(at + "anchor is required with an interval: "
                    + "the first run time, from which every run is counted");
        }
    }

    private void validateCron(String at) {
        if (cron.isEmpty()) {
            throw new ScheduleDeclarationException(at + "cron is blank");
        }
        CronGrid grid;
        try {
            grid = new CronGrid(cron, zone);
        } catch (IllegalArgumentException e) {
            throw new ScheduleDeclarationException(at + "cron '" + cron + "' " + e.getMessage());
        }
        Instant from = LocalTimes.resolve(CRON_CHECK_FROM, zone);
        Instant until = LocalTimes.resolve(CRON_CHECK_FROM.plusYears(CRON_CHECK_YEARS), zone);
        Instant first;
        try {
            first = grid.firstAfter(from.minusSeconds(1));
        } catch (IllegalStateException e) {
            first = null;
        }
        if (first == null || !first.isBefore(until)) {
            throw new ScheduleDeclarationException(at + "cron '" + cron + "' never matches: no run time in the "
                    + CRON_CHECK_YEARS + " years it is checked over (from " + CRON_CHECK_FROM.toLocalDate() + ")");
        }
    }

    /**
     * When this schedule runs; the definition must be valid and on a grid.
     *
     * @throws IllegalStateException for a fixed-delay schedule, which has no grid: its next run is counted from an end
     */
    public Grid grid() {
        if (isFixedDelay()) {
            throw new IllegalStateException("Schedule '" + name + "' runs a fixed delay after each end: it has no grid");
        }
        return isCron() ? new CronGrid(cron, zone) : new AnchorGrid(anchor, intervalCount, unit, zone);
    }

    /**
     * When this schedule runs, less the times {@code calendar} excludes (skipped or moved as {@link #excluded} says); the
     * definition's own grid without a calendar. The caller resolves the calendar this definition names.
     *
     * @throws IllegalStateException for a fixed-delay schedule
     */
    public Grid grid(ExclusionCalendar calendar) {
        Grid grid = grid();
        if (this.calendar == null || calendar == null) {
            return grid;
        }
        return new ExcludingGrid(grid, calendar, excluded == io.dispatchpolicy.spi.Excluded.MOVE ? ExcludingGrid.Mode.MOVE
                : ExcludingGrid.Mode.SKIP);
    }

    /**
     * The definition as a canonical map for the audit snapshot: the {@link Field} keys in declaration order,
     * unset fields left out, values as strings, numbers, booleans and a sorted parameter map. Written once per
     * occurrence and never compared.
     */
    public Map<String, Object> snapshot() {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        for (Field field : Field.values()) {
            Object value = field.valueIn(this);
            if (value != null) {
                snapshot.put(field.key(), value);
            }
        }
        return Collections.unmodifiableMap(snapshot);
    }

    /** The fields, among {@link #OCCURRENCE_FIELDS}, in which {@code other} differs from this; empty when none. */
    public Set<Field> occurrenceChanges(ScheduleDefinition other) {
        Objects.requireNonNull(other, "other");
        Set<Field> changed = new LinkedHashSet<>();
        for (Field field : OCCURRENCE_FIELDS) {
            if (!Objects.equals(field.valueIn(this), field.valueIn(other))) {
                changed.add(field);
            }
        }
        return changed;
    }

    /**
     * True when {@code other} differs in what or when an occurrence runs (job, parameters, timing, zone,
     * priority, lane): the schedule needs a new version, and its live future must be replaced.
     */
    public boolean differsInOccurrence(ScheduleDefinition other) {
        return !occurrenceChanges(other).isEmpty();
    }

    /**
     * A zone from its id as standalone.xml or the console gives it: a region id such as {@code Europe/Berlin}, or
     * {@code UTC}; null or blank is UTC.
     *
     * @throws ScheduleDeclarationException for an unknown id (quoted) or a fixed offset such as {@code +02:00}
     */
    public static ZoneId parseZone(String schedule, String text) {
        if (text == null || text.isBlank()) {
            return UTC;
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(text.strip());
        } catch (DateTimeException e) {
            throw new ScheduleDeclarationException(prefix(schedule) + "zone '" + text
                    + "' is not a known region id: use one such as Europe/Berlin, or UTC");
        }
        if (ZoneOffset.UTC.equals(zone)) {
            return UTC;
        }
        String problem = zoneProblem(zone);
        if (problem != null) {
            throw new ScheduleDeclarationException(prefix(schedule) + "zone " + problem);
        }
        return zone;
    }

    /**
     * The anchor instant of a first run given as a local date-time in the schedule's zone.
     *
     * @throws ScheduleDeclarationException when the zone skips that time: wall-clock units keep the anchor's
     *                                      local time, and the instant could only carry the time after the gap
     *                                      (a "02:30" schedule would run at 03:00 every day)
     */
    public static Instant anchorAt(String schedule, LocalDateTime local, ZoneId zone) {
        if (LocalTimes.isSkipped(local, zone)) {
            throw new ScheduleDeclarationException(prefix(schedule) + "anchor " + local + " does not exist in "
                    + zone.getId() + " (the clocks skip it): choose another time or day for the first run");
        }
        return LocalTimes.resolve(local, zone);
    }

    /**
     * A unit from its name as standalone.xml or the console gives it.
     *
     * @throws ScheduleDeclarationException {@code Schedule 'nightly': unit must be one of seconds|…|years (was
     *                                      'fortnights')}
     */
    public static ScheduleUnit parseUnit(String schedule, String text) {
        try {
            return ScheduleUnit.parse(text);
        } catch (ScheduleDeclarationException e) {
            throw new ScheduleDeclarationException(prefix(schedule) + e.getMessage());
        }
    }

    // A fixed offset would keep e.g. +01:00 all summer: a "09:00 Berlin" schedule would run at 10:00 local time.
    private static String zoneProblem(ZoneId zone) {
        if (zone instanceof ZoneOffset) {
            return "'" + zone.getId() + "' is a fixed offset: use a region id such as Europe/Berlin, "
                    + "which follows DST, or UTC";
        }
        if (!ZoneId.getAvailableZoneIds().contains(zone.getId())) {
            return "'" + zone.getId() + "' is not a region id: use one such as Europe/Berlin, or UTC";
        }
        return null;
    }

    private static String prefix(String name) {
        return "Schedule '" + name + "': ";
    }
}
