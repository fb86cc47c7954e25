package io.dispatchpolicy.domain.schedule;

import java.time.Instant;
import java.util.Objects;

/**
 * A schedule's grid less its calendar's excluded times (issue 39, deliverable 4). {@link Mode#SKIP}: an excluded point
 * does not run; the next point the calendar allows does. {@link Mode#MOVE}: an excluded point runs at the first time
 * the calendar allows after it (the same time of day on the next allowed day, or the end of an excluded window); points
 * that fall before a moved one are absorbed by it, so the sequence stays strictly increasing and no time runs twice.
 * A calendar that leaves no point within {@value #HORIZON_DAYS} days of the asked time makes {@link #firstAfter} throw,
 * as a cron expression that never matches does.
 */
public final class ExcludingGrid implements Grid {

    /** How far ahead an allowed point is looked for: ten years and a leap day or two. */
    public static final int HORIZON_DAYS = 3_660;

    /** What becomes of a grid point the calendar excludes. */
    public enum Mode { SKIP, MOVE }

    private final Grid inner;
    private final ExclusionCalendar calendar;
    private final Mode mode;

    public ExcludingGrid(Grid inner, ExclusionCalendar calendar, Mode mode) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.calendar = Objects.requireNonNull(calendar, "calendar");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    @Override
    public Instant firstAfter(Instant t) {
        Instant limit = t.plus(java.time.Duration.ofDays(HORIZON_DAYS));
        Instant p = inner.firstAfter(t);
        while (!p.isAfter(limit)) {
            if (!calendar.excludes(p)) {
                return p;
            }
            java.util.Optional<Instant> allowed = calendar.firstAllowedFrom(p, mode == Mode.MOVE, HORIZON_DAYS);
            if (allowed.isEmpty()) {
                break;
            }
            if (mode == Mode.MOVE) {
                return allowed.get();
            }
            // skip: the first point at or after the exclusion's end, in one jump (a grid of seconds across a fortnight's
            // holiday is not walked point by point)
            p = inner.firstAfter(allowed.get().minusNanos(1));
        }
        throw new IllegalStateException("calendar '" + calendar.name() + "' excludes every run time of the schedule for "
                + HORIZON_DAYS + " days after " + t);
    }

    public Grid inner() {
        return inner;
    }

    public ExclusionCalendar calendar() {
        return calendar;
    }

    public Mode mode() {
        return mode;
    }

    @Override
    public String toString() {
        return inner + " less calendar '" + calendar.name() + "' (" + mode.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
