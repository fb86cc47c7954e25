package io.dispatchpolicy.domain.schedule;

import jakarta.enterprise.concurrent.CronTrigger;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The grid of a cron expression, matched by {@code jakarta.enterprise.concurrent.CronTrigger} (no parser of
 * ours). In a DST zone CronTrigger skips a nonexistent time and runs a repeated one twice, so it is used here
 * only as a field matcher over local date-times (evaluated in UTC, which has no DST) and each match becomes an
 * instant by {@link LocalTimes#resolve}: cron and anchored schedules share one DST rule (ADR 0012).
 *
 * <p>Syntax is CronTrigger's: 5 fields, or 6 with leading seconds; {@code * ? , - /}, {@code L}, {@code nL},
 * {@code DAY#n}, {@code DAY#L}, month and day names. When day-of-month and day-of-week are both restricted,
 * both must match (Vixie cron uses either).
 */
public final class CronGrid implements Grid {

    private final String expression;
    private final ZoneId zone;
    private final CronTrigger trigger;

    /**
     * @throws IllegalArgumentException when the expression does not have 5 or 6 fields or CronTrigger cannot
     *                                  parse it; the message says what is wrong
     */
    public CronGrid(String expression, ZoneId zone) {
        this.expression = normalize(Objects.requireNonNull(expression, "expression"));
        this.zone = Objects.requireNonNull(zone, "zone");
        int fields = this.expression.isEmpty() ? 0 : this.expression.split(" ").length;
        if (fields != 5 && fields != 6) {
            throw new IllegalArgumentException("has " + fields + " field(s): use 5 (minute hour day-of-month month "
                    + "day-of-week) or 6 with leading seconds");
        }
        try {
            this.trigger = new CronTrigger(this.expression, ZoneOffset.UTC);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot be parsed (" + e.getMessage() + ")", e);
        }
    }

    /** The expression as CronTrigger needs it: fields separated by exactly one space. */
    public static String normalize(String expression) {
        return expression == null ? null : String.join(" ", expression.strip().split("\\s+"));
    }

    @Override
    public Instant firstAfter(Instant t) {
        LocalDateTime from = searchFrom(t);
        while (true) {
            LocalDateTime match = firstMatchFrom(from);
            Instant at = LocalTimes.resolve(match, zone);
            if (at.isAfter(t)) {
                return at;
            }
            // a repeated or skipped local time that resolves at or before t: it has run already
            from = match.plusSeconds(1);
        }
    }

    /**
     * The first local time whose match may resolve after {@code t}. Every earlier local time resolves at or
     * before t. When t lies in the second pass of a fall-back overlap, the rest of the overlap is such a time too
     * (it resolves to the first pass), so the search starts where the overlap ends instead of walking it.
     */
    private LocalDateTime searchFrom(Instant t) {
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        if (LocalTimes.resolve(local, zone).isBefore(t)) {
            return zone.getRules().getTransition(local).getDateTimeBefore();
        }
        return local.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    }

    /** The first local date-time at or after {@code from} (whole seconds) that the fields match. */
    private LocalDateTime firstMatchFrom(LocalDateTime from) {
        ZonedDateTime next;
        try {
            next = trigger.getNextRunTime(null, from.atZone(ZoneOffset.UTC));
        } catch (DateTimeException e) {
            throw new IllegalStateException("cron '" + expression + "' matches no time after " + from, e);
        }
        if (next == null) {
            throw new IllegalStateException("cron '" + expression + "' matches no time after " + from);
        }
        return next.toLocalDateTime();
    }

    /** The normalized expression. */
    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    @Override
    public String toString() {
        return "cron '" + expression + "' in " + zone;
    }
}
