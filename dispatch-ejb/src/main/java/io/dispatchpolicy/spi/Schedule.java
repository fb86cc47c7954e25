package io.dispatchpolicy.spi;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * A declared recurring schedule: a job XML and its parameters, run on a grid or a cron expression in a zone, or a fixed
 * delay after each run ended (ADR 0012, 0054). Each run is an occurrence staged like a submission, under the policy that
 * governs the job.
 *
 * <p>Declare one as a CDI producer in any bean archive the engine can see, as for a {@link Policy}:
 * <pre>{@code
 * @Produces
 * Schedule nightly() {
 *     return Schedule.named("nightly").job("report").parameter("scope", "all")
 *             .every(1, ScheduleUnit.DAYS).from(LocalDateTime.of(2025, 1, 1, 2, 30))
 *             .zone("Europe/Berlin")
 *             .build();
 * }
 *
 * @Produces
 * Schedule weekdays() {
 *     return Schedule.named("weekdays").job("digest").cron("0 8 * * MON-FRI").zone("America/New_York").build();
 * }
 * }</pre>
 * A {@code dispatch.schedule.<name>.*} property replaces the field of the same name.
 */
public final class Schedule {

    private static final ZoneId UTC = ZoneId.of("UTC");

    private final String name;
    private final String jobName;
    private final Map<String, String> parameters;
    private final Instant anchor;
    private final Integer interval;
    private final ScheduleUnit unit;
    private final String cron;
    private final ZoneId zone;
    private final Integer priority;
    private final String lane;
    private final boolean catchUp;
    private final boolean enabled;
    private final String runAs;
    private final java.time.Duration deadline;
    private final java.time.Duration delay;
    private final String calendar;
    private final Excluded excluded;

    private Schedule(Builder b, Instant anchor, ZoneId zone, String cron) {
        this.name = b.name;
        this.jobName = b.job == null ? null : Policy.jobName(b.job.strip());
        this.parameters = Collections.unmodifiableMap(new TreeMap<>(b.parameters));
        this.anchor = anchor;
        this.interval = b.interval;
        this.unit = b.unit;
        this.cron = cron;
        this.zone = zone == null || ZoneOffset.UTC.equals(zone) ? UTC : zone;
        this.priority = b.priority;
        // an empty lane means "no override", as an absent one does
        this.lane = b.lane == null || b.lane.isBlank() ? null : b.lane.strip();
        this.catchUp = b.catchUp;
        this.enabled = b.enabled;
        this.runAs = b.runAs == null || b.runAs.isBlank() ? null : b.runAs.strip();
        this.deadline = b.deadline;
        this.delay = b.delay;
        this.calendar = b.calendar == null || b.calendar.isBlank() ? null : b.calendar.strip();
        this.excluded = this.calendar == null ? b.excluded : b.excluded == null ? Excluded.SKIP : b.excluded;
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** The job XML name each occurrence starts, without {@code .xml}. */
    public String jobName() {
        return jobName;
    }

    /** The job parameters of each occurrence, sorted by name. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** The first run time of an anchored schedule; empty for a cron schedule. */
    public Optional<Instant> anchor() {
        return Optional.ofNullable(anchor);
    }

    /** Units between runs of an anchored schedule; empty for a cron schedule. */
    public OptionalInt interval() {
        return interval == null ? OptionalInt.empty() : OptionalInt.of(interval);
    }

    public Optional<ScheduleUnit> unit() {
        return Optional.ofNullable(unit);
    }

    /** The cron expression, whitespace collapsed; empty for an anchored schedule. */
    public Optional<String> cron() {
        return Optional.ofNullable(cron);
    }

    public ZoneId zone() {
        return zone;
    }

    /** Overrides the governing policy's priority for occurrences; empty: the policy decides. */
    public OptionalInt priority() {
        return priority == null ? OptionalInt.empty() : OptionalInt.of(priority);
    }

    /** Overrides the governing policy's lane for occurrences; empty: the policy decides. */
    public Optional<String> lane() {
        return Optional.ofNullable(lane);
    }

    public boolean catchUp() {
        return catchUp;
    }

    /** The user each occurrence runs as (a name of the batch subsystem's security realm); empty: nobody in particular. */
    public Optional<String> runAs() {
        return Optional.ofNullable(runAs);
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * How long after its run time an occurrence may still be admitted; past it, it is EXPIRED and the next one is
     * staged. Empty: the governing policy's {@code expireAfter}, counted from the run time, else none.
     */
    public Optional<java.time.Duration> deadline() {
        return Optional.ofNullable(deadline);
    }

    /** The calendar whose excluded times this schedule does not run at ({@link Builder#excluding}). */
    public Optional<String> calendar() {
        return Optional.ofNullable(calendar);
    }

    /** What becomes of an excluded run time: skipped or moved; present with a calendar. */
    public Optional<Excluded> excluded() {
        return Optional.ofNullable(excluded);
    }

    /** Fixed-delay mode ({@link Builder#afterEnd}): how long after a run's end the next one is due. */
    public Optional<java.time.Duration> delay() {
        return Optional.ofNullable(delay);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule other && Objects.equals(name, other.name) && Objects.equals(jobName, other.jobName)
                && parameters.equals(other.parameters) && Objects.equals(anchor, other.anchor)
                && Objects.equals(interval, other.interval) && unit == other.unit && Objects.equals(cron, other.cron)
                && zone.equals(other.zone) && Objects.equals(priority, other.priority) && Objects.equals(lane, other.lane)
                && catchUp == other.catchUp && enabled == other.enabled && Objects.equals(runAs, other.runAs)
                && Objects.equals(deadline, other.deadline) && Objects.equals(delay, other.delay)
                && Objects.equals(calendar, other.calendar) && excluded == other.excluded;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, jobName, parameters, anchor, interval, unit, cron, zone, priority, lane, catchUp, enabled, runAs,
                deadline, delay, calendar, excluded);
    }

    @Override
    public String toString() {
        return "Schedule[" + name + " runs " + jobName + " "
                + (cron != null ? "on cron '" + cron + "'" : delay != null ? delay.toSeconds() + " s after each run ended"
                : "every " + interval + " " + unit.label() + " from " + anchor)
                + " in " + zone + "]";
    }

    /** The engine's check, looked up once (the spi names no engine type). */
    private static final class Check {
        static final ScheduleCheck ENGINE = ServiceLoader.load(ScheduleCheck.class, Schedule.class.getClassLoader())
                .findFirst().orElseThrow(() -> new IllegalStateException(
                        "No " + ScheduleCheck.class.getName() + " found: the Dispatch Policy engine is not on the class path"));
    }

    /**
     * Collects a declaration; {@link #build()} checks it as a whole, with the same rules as standalone.xml and
     * the console, so the order of calls does not matter ({@code from(LocalDateTime)} is read in the zone given
     * to {@link #zone}, before or after it).
     */
    public static final class Builder {
        private final String name;
        private String job;
        private final Map<String, String> parameters = new LinkedHashMap<>();
        private Integer interval;
        private ScheduleUnit unit;
        private Instant anchor;
        private LocalDateTime localAnchor;
        private String cron;
        private String zoneText;
        private ZoneId zone;
        private Integer priority;
        private String lane;
        private boolean catchUp;
        private boolean enabled = true;
        private String runAs;
        private java.time.Duration deadline;
        private java.time.Duration delay;
        private String calendar;
        private Excluded excluded;

        private Builder(String name) {
            this.name = name;
        }

        /** The job XML each occurrence starts ({@code .xml} optional). */
        public Builder job(String jobXmlName) {
            this.job = jobXmlName;
            return this;
        }

        /** A job parameter of every occurrence; a later value for the same name replaces the earlier. */
        public Builder parameter(String key, String value) {
            if (key == null || value == null) {
                throw new ScheduleDeclarationException("Schedule '" + name + "': param." + key
                        + " is null: a parameter needs a name and a value");
            }
            parameters.put(key, value);
            return this;
        }

        /**
         * Runs every {@code interval} units from the anchor given to {@code from}: seconds to hours in elapsed
         * time, days to years on the zone's wall clock.
         */
        public Builder every(int interval, ScheduleUnit unit) {
            this.interval = interval;
            this.unit = unit;
            return this;
        }

        /** The first run, from which every run is counted. */
        public Builder from(Instant anchor) {
            this.anchor = Objects.requireNonNull(anchor, "anchor");
            this.localAnchor = null;
            return this;
        }

        /** The first run as a local date-time in the schedule's zone; a time the zone skips is refused. */
        public Builder from(LocalDateTime anchor) {
            this.localAnchor = Objects.requireNonNull(anchor, "anchor");
            this.anchor = null;
            return this;
        }

        /**
         * Runs at the local times a cron expression matches: 5 fields, or 6 with leading seconds
         * ({@code 0 8 * * MON-FRI}). Day-of-month and day-of-week must both match when both are restricted.
         */
        public Builder cron(String expression) {
            this.cron = expression;
            return this;
        }

        /**
         * Runs {@code delay} after the previous run ended for good (its last execution, after its retries), never two at
         * once: fixed delay, not fixed rate. The first run is due at once (or {@code delay} after the last end, when the
         * schedule ran before). Whole seconds, 1 second to 366 days; not with a cron expression, an interval or
         * {@link #catchUp()}.
         */
        public Builder afterEnd(java.time.Duration delay) {
            this.delay = Objects.requireNonNull(delay, "delay");
            return this;
        }

        /**
         * Does not run at the times the named {@link Calendar} excludes: each such run time is skipped (the next allowed
         * one of the grid runs). The calendar must be declared (in code, standalone.xml or the console) when the schedule
         * is; one that excludes every run time for ten years is refused.
         */
        public Builder excluding(String calendar) {
            return excluding(calendar, Excluded.SKIP);
        }

        /** As {@link #excluding(String)}, with an excluded run time skipped or moved to the first allowed time after it. */
        public Builder excluding(String calendar, Excluded excluded) {
            this.calendar = Objects.requireNonNull(calendar, "calendar");
            this.excluded = Objects.requireNonNull(excluded, "excluded");
            return this;
        }

        /** A region id such as {@code Europe/Berlin}, or {@code UTC} (the default); fixed offsets are refused. */
        public Builder zone(String zoneId) {
            this.zoneText = zoneId;
            this.zone = null;
            return this;
        }

        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            this.zoneText = null;
            return this;
        }

        /** The priority of every occurrence, instead of the one the governing policy computes. */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /** The lane of every occurrence, instead of the one the governing policy assigns. */
        public Builder lane(String lane) {
            this.lane = lane;
            return this;
        }

        /**
         * Every occurrence runs as this user of the batch subsystem's security realm, with the roles the realm
         * gives them when it starts — as a job submitted by them does.
         */
        public Builder runAs(String user) {
            this.runAs = user;
            return this;
        }

        /**
         * An occurrence not admitted within {@code max} of its run time (its gates held it, the node was down) is
         * EXPIRED: it never runs, shows as such in the Jobs view, and the schedule's next one is staged. With
         * {@link #catchUp()}, missed runs already past their deadline are skipped. 1 second to 3,653 days.
         */
        public Builder deadline(java.time.Duration max) {
            this.deadline = Objects.requireNonNull(max, "deadline");
            return this;
        }

        /** Declared but without occurrences until enabled from the console or API. */
        public Builder disabled() {
            this.enabled = false;
            return this;
        }

        /**
         * After an outage, runs the missed times one by one, each due at once, up to
         * 1,000 in a row. Without it the schedule
         * resumes at the next future time.
         */
        public Builder catchUp() {
            this.catchUp = true;
            return this;
        }

        /** @throws ScheduleDeclarationException naming the schedule and the field that is wrong */
        public Schedule build() {
            ScheduleCheck check = Check.ENGINE;
            ZoneId z = zoneText != null ? check.zone(name, zoneText) : zone;
            Instant first = localAnchor != null ? check.anchor(name, localAnchor, z != null ? z : UTC) : anchor;
            Schedule declared = new Schedule(this, first, z, check.cron(cron));
            check.check(declared);
            return declared;
        }
    }
}
