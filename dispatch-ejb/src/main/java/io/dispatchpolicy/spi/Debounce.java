package io.dispatchpolicy.spi;

import java.time.Duration;

/**
 * Debounce (ADR 0036): while a job with the same key is staged and not yet due, a new submission replaces its
 * parameters and pushes its due time to {@code period} after now, never past {@code maxWait} after the
 * first submission of the burst; the caller gets the surviving submission's id.
 *
 * @param period  how long after the last submission of a burst its job is due
 * @param maxWait the longest a burst delays its job, from its first submission: at least the period
 */
public record Debounce(Duration period, Duration maxWait) {

    /** The longest period or wait: a day. */
    public static final Duration MAX = Duration.ofDays(1);

    public Debounce {
        if (period == null || period.isZero() || period.isNegative() || period.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("the debounce period must be more than 0 and at most a day, was " + period);
        }
        if (maxWait == null) {
            maxWait = MAX;
        }
        if (maxWait.compareTo(period) < 0 || maxWait.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("the debounce maxWait must be at least the period (" + period
                    + ") and at most a day, was " + maxWait);
        }
    }
}
