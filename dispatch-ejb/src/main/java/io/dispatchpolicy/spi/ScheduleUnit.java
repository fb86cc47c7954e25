package io.dispatchpolicy.spi;

import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The unit of an anchored schedule's interval. Seconds, minutes and hours are elapsed time: a grid point is
 * {@code anchor + N × interval} on the instant line, so a DST change neither skips nor repeats one. Days and
 * longer are wall-clock: the anchor's local date and time in the schedule's zone, moved by whole calendar units,
 * so "daily at 02:30" stays at 02:30 across DST changes and "monthly on the 31st" runs on the last day of
 * shorter months.
 */
public enum ScheduleUnit {
    SECONDS(ChronoUnit.SECONDS),
    MINUTES(ChronoUnit.MINUTES),
    HOURS(ChronoUnit.HOURS),
    DAYS(ChronoUnit.DAYS),
    WEEKS(ChronoUnit.WEEKS),
    MONTHS(ChronoUnit.MONTHS),
    YEARS(ChronoUnit.YEARS);

    /** The accepted names, as messages show them: {@code seconds|minutes|…|years}. */
    public static final String NAMES = Arrays.stream(values()).map(ScheduleUnit::label)
            .collect(Collectors.joining("|"));

    private final ChronoUnit chronoUnit;

    ScheduleUnit(ChronoUnit chronoUnit) {
        this.chronoUnit = chronoUnit;
    }

    public ChronoUnit chronoUnit() {
        return chronoUnit;
    }

    /** True for days and longer: counted on the zone's wall clock rather than in elapsed time. */
    public boolean wallClock() {
        return compareTo(DAYS) >= 0;
    }

    /** The lowercase name standalone.xml, the console and the database use: {@code minutes}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * A unit from its name ({@code minutes}; surrounding blanks and case are ignored).
     *
     * @throws ScheduleDeclarationException {@code unit must be one of seconds|…|years (was 'fortnights')}
     */
    public static ScheduleUnit parse(String text) {
        if (text != null) {
            String wanted = text.strip();
            for (ScheduleUnit unit : values()) {
                if (unit.label().equalsIgnoreCase(wanted)) {
                    return unit;
                }
            }
        }
        throw new ScheduleDeclarationException("unit must be one of " + NAMES + " (was '" + text + "')");
    }
}
