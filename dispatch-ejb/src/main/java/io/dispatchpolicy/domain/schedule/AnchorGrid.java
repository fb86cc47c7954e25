package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleUnit;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Objects;

/**
 * The grid {@code anchor + N × interval}, N = 0, 1, 2, …: the anchor is the first point.
 *
 * <p>Seconds, minutes and hours step on the instant line. Days and longer step on the wall clock: point N is
 * {@code anchorLocal.plus(N × interval, unit)}, always computed from the anchor and never from the previous
 * point, so a month that clamps (Jan 31 → Feb 28) does not move the months after it (→ Mar 31), and Feb 29
 * yearly runs on Feb 28 in common years. Local points become instants by {@link LocalTimes#resolve}; two that
 * resolve to the same instant (possible only inside a DST gap) count once, so the grid strictly increases.
 *
 * <p>{@link #firstAfter} estimates N from the elapsed units in O(1) and corrects it by a step or two, so
 * a grid anchored years ago costs the same as a new one.
 */
public final class AnchorGrid implements Grid {

    private final Instant anchor;
    private final int interval;
    private final ScheduleUnit unit;
    private final ZoneId zone;
    private final Duration step;
    private final LocalDateTime anchorLocal;

    /**
     * @param anchor   the first point
     * @param interval units between points, at least 1
     * @param unit     elapsed (seconds to hours) or wall-clock (days to years)
     * @param zone     the zone wall-clock units count in
     */
    public AnchorGrid(Instant anchor, int interval, ScheduleUnit unit, ZoneId zone) {
        this.anchor = Objects.requireNonNull(anchor, "anchor");
        this.unit = Objects.requireNonNull(unit, "unit");
        this.zone = Objects.requireNonNull(zone, "zone");
        if (interval < 1) {
            throw new IllegalArgumentException("interval must be >= 1, was " + interval);
        }
        this.interval = interval;
        this.step = unit.wallClock() ? null : unit.chronoUnit().getDuration().multipliedBy(interval);
        this.anchorLocal = unit.wallClock() ? LocalDateTime.ofInstant(anchor, zone) : null;
    }

    @Override
    public Instant firstAfter(Instant t) {
        return unit.wallClock() ? firstWallClockPointAfter(t) : firstElapsedPointAfter(t);
    }

    /** Elapsed units count by division, O(1) however long the span; wall-clock ones walk (a day or more a point). */
    @Override
    public long count(Instant from, Instant to, long limit) {
        if (unit.wallClock()) {
            return Grid.super.count(from, to, limit);
        }
        if (to.isBefore(from)) {
            return 0;
        }
        return Math.min(limit + 1, Duration.between(from, to).dividedBy(step) + 1);
    }

    private Instant firstElapsedPointAfter(Instant t) {
        if (t.isBefore(anchor)) {
            return anchor;
        }
        long n = Duration.between(anchor, t).dividedBy(step);
        return anchor.plus(step.multipliedBy(n + 1));
    }

    private Instant firstWallClockPointAfter(Instant t) {
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        // whole units from the anchor to t: anchorLocal.plus(that) is never after t, so point n is at or before t
        long n = local.isAfter(anchorLocal) ? unit.chronoUnit().between(anchorLocal, local) / interval : 0;
        while (n > 0 && point(n).isAfter(t)) {
            n--;
        }
        while (!point(n).isAfter(t)) {
            n++;
        }
        return point(n);
    }

    private Instant point(long n) {
        if (n == 0) {
            // the anchor itself, even when it lies in the second pass of an overlap, which resolve would move
            // to the first
            return anchor;
        }
        return LocalTimes.resolve(anchorLocal.plus(Math.multiplyExact(n, (long) interval), unit.chronoUnit()), zone);
    }

    public Instant anchor() {
        return anchor;
    }

    public int interval() {
        return interval;
    }

    public ScheduleUnit unit() {
        return unit;
    }

    public ZoneId zone() {
        return zone;
    }

    @Override
    public String toString() {
        return "every " + interval + " " + unit.label() + " from " + anchor + " in " + zone;
    }
}
