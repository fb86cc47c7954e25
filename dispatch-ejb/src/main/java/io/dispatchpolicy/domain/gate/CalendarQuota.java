package io.dispatchpolicy.domain.gate;

import io.dispatchpolicy.domain.schedule.LocalTimes;
import io.dispatchpolicy.spi.QuotaPeriod;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;

/**
 * The quota gate: at most {@code max} jobs a calendar period per partition. Its state is a
 * {@link TokenBucket.State} kept where the throttles' are: {@code tokens} counts what was admitted in the
 * period that started at {@code atMillis}. A state from an earlier period counts nothing (the period ended;
 * nothing carries over). Counting what was used, not what is left, lets an operator raise or lower {@code max}
 * mid-period and have it count at once. Periods start at local midnight in the gate's zone, resolved as the
 * schedules resolve local times ({@link LocalTimes}): a day is 23 or 25 hours across a DST change, a month as
 * long as it is, and a midnight the zone skips starts the period at the first instant after the gap.
 */
public final class CalendarQuota {

    public static final String EXHAUSTED = "quota_exhausted";

    private CalendarQuota() {
    }

    /**
     * When the period holding {@code t} started: local midnight of its first day. Never after {@code t}: a local
     * date exists only from its midnight on, or from the end of a gap that swallowed it.
     */
    public static Instant periodStart(Instant t, QuotaPeriod period, ZoneId zone) {
        return LocalTimes.resolve(firstDay(t, period, zone).atStartOfDay(), zone);
    }

    /** When the period holding {@code t} ends: the next period's start. */
    public static Instant periodEnd(Instant t, QuotaPeriod period, ZoneId zone) {
        LocalDate first = firstDay(t, period, zone);
        LocalDate next = switch (period) {
            case DAY -> first.plusDays(1);
            case WEEK -> first.plusWeeks(1);
            case MONTH -> first.plusMonths(1);
        };
        return LocalTimes.resolve(next.atStartOfDay(), zone);
    }

    private static LocalDate firstDay(Instant t, QuotaPeriod period, ZoneId zone) {
        LocalDate day = t.atZone(zone).toLocalDate();
        return switch (period) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> day.withDayOfMonth(1);
        };
    }

    /** The quota as of {@code nowMillis}: the stored count while its period lasts, else an empty new period. */
    public static TokenBucket.State current(TokenBucket.State stored, QuotaPeriod period, ZoneId zone, long nowMillis) {
        long start = periodStart(Instant.ofEpochMilli(nowMillis), period, zone).toEpochMilli();
        if (stored == null || stored.atMillis() != start) {
            return new TokenBucket.State(0, start);
        }
        return stored;
    }

    /** The verdict for a job of {@code need} slots: what is left of {@code max}, or a wait until the next period. */
    public static GateCheck check(TokenBucket.State current, long max, QuotaPeriod period, ZoneId zone, long nowMillis, int need) {
        long left = left(current, max);
        if (left >= need) {
            return GateCheck.allow(left);
        }
        long end = periodEnd(Instant.ofEpochMilli(current.atMillis()), period, zone).toEpochMilli();
        return GateCheck.deny(EXHAUSTED, Duration.ofMillis(Math.max(1, end - nowMillis)));
    }

    /** What is left of {@code max} in the current period (none when a lowered max is below what was used). */
    public static long left(TokenBucket.State current, long max) {
        return Math.max(0, max - (long) Math.ceil(current.tokens() - 1e-9));
    }

    /** The count after admitting jobs of {@code slots} in all. */
    public static TokenBucket.State charge(TokenBucket.State current, int slots) {
        return new TokenBucket.State(current.tokens() + slots, current.atMillis());
    }

    /** When nothing of this state counts any more (the period's end); its own start when it counts nothing. */
    public static long spentUntilMillis(TokenBucket.State state, QuotaPeriod period, ZoneId zone) {
        return state.tokens() <= 0 ? state.atMillis()
                : periodEnd(Instant.ofEpochMilli(state.atMillis()), period, zone).toEpochMilli();
    }
}
