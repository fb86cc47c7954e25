package io.dispatchpolicy.spi;

/**
 * The calendar period of a {@link Gate#quota quota}: it starts again at the zone's local midnight of the next day,
 * of the next Monday (ISO weeks) or of the first of the next month — whatever the day's length on that date (23
 * or 25 hours across a DST change) or the month's.
 */
public enum QuotaPeriod {
    DAY, WEEK, MONTH;

    /** {@code day}, {@code week}, {@code month}: how the console and the logs name it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
