package io.dispatchpolicy.domain.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Plans a schedule's next grid occurrence. Pure: the caller passes {@code now} (the database's clock in
 * production) and the previous occurrence, so every node plans the same chain.
 *
 * <p>The chain only moves forward: each next point is strictly after the previous grid occurrence, so a
 * skipped slot is never reused. With catch-up, missed points are created one at a time, each due at once.
 * {@code overdueSeq} is an occurrence's place in the run of late occurrences: the one that was live when the
 * outage began (created on time, admitted after its successor's time had come) is the first late run, the
 * missed points created after it the second, third and so on, and the {@value #CATCH_UP_LIMIT}-th is the
 * last: instead of the next one the chain jumps to the first point after {@code now} and reports the points
 * it skipped and how many. A long outage on a short grid therefore costs at most {@value #CATCH_UP_LIMIT}
 * late runs, never an unbounded backlog.
 */
public final class Chain {

    /** Consecutive overdue occurrences a catch-up may create before the chain jumps to the future. */
    public static final int CATCH_UP_LIMIT = 1_000;

    private Chain() {
    }

    /** {@link #next(Grid, Instant, boolean, Instant, int, Duration)} for a valid definition, with its own catch-up. */
    public static NextOccurrence next(ScheduleDefinition definition, Instant previousRunAt, Instant now,
                                      int overdueSeqOfPrevious, Duration deadline) {
        return next(definition.grid(), previousRunAt, definition.catchUp(), now, overdueSeqOfPrevious, deadline);
    }

    /** {@link #next(ScheduleDefinition, Instant, Instant, int, Duration)} without a deadline. */
    public static NextOccurrence next(ScheduleDefinition definition, Instant previousRunAt, Instant now, int overdueSeqOfPrevious) {
        return next(definition, previousRunAt, now, overdueSeqOfPrevious, null);
    }

    /** {@link #next(Grid, Instant, boolean, Instant, int, Duration)} without a deadline. */
    public static NextOccurrence next(Grid grid, Instant previousRunAt, boolean catchUp, Instant now, int overdueSeqOfPrevious) {
        return next(grid, previousRunAt, catchUp, now, overdueSeqOfPrevious, null);
    }

    /**
     * The occurrence that follows one being admitted (chaining) or skipped.
     *
     * @param previousRunAt        the grid run time of the previous occurrence; null when there is none
     * @param catchUp              true: the point right after {@code previousRunAt}, even when it has passed;
     *                             false: the first point after both {@code previousRunAt} and {@code now}
     * @param overdueSeqOfPrevious the previous occurrence's {@code overdueSeq} (0 when it was created in the
     *                             future: it still counts as the first late run when its successor is due)
     * @param deadline             how long after its run time an occurrence may still be admitted; null: no limit.
     *                             A catch-up never creates a missed point whose deadline has passed (it would only
     *                             expire): the chain goes on from the first point whose deadline is ahead
     */
    public static NextOccurrence next(Grid grid, Instant previousRunAt, boolean catchUp, Instant now,
                                      int overdueSeqOfPrevious, Duration deadline) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(now, "now");
        if (previousRunAt == null || !catchUp) {
            return first(grid, previousRunAt, now);
        }
        Instant missed = grid.firstAfter(previousRunAt);
        Instant candidate = missed;
        Optional<NextOccurrence.Cut> pastDeadline = Optional.empty();
        if (deadline != null && !candidate.plus(deadline).isAfter(now)) {
            Instant expiredUpTo = now.minus(deadline);
            Instant lastExpired = lastAtOrBefore(grid, candidate, expiredUpTo);
            pastDeadline = Optional.of(new NextOccurrence.Cut(candidate, lastExpired,
                    grid.count(candidate, lastExpired, NextOccurrence.Cut.COUNTED_UP_TO), NextOccurrence.Cut.Why.PAST_DEADLINE));
            candidate = grid.firstAfter(expiredUpTo);
        }
        if (candidate.isAfter(now)) {
            return new NextOccurrence(candidate, 0, pastDeadline);
        }
        // the successor is due already, so the previous ran late too: it is the first of the late run
        // even when it was created on time (overdueSeq 0), and counts against the limit
        int seq = Math.max(1, overdueSeqOfPrevious) + 1;
        if (seq <= CATCH_UP_LIMIT) {
            return new NextOccurrence(candidate, seq, pastDeadline);
        }
        // one cut, from the first missed point, covers those past their deadline too
        Instant resume = grid.firstAfter(now);
        Instant lastSkipped = lastAtOrBefore(grid, missed, now);
        long skipped = grid.count(missed, lastSkipped, NextOccurrence.Cut.COUNTED_UP_TO);
        return new NextOccurrence(resume, 0, Optional.of(new NextOccurrence.Cut(missed, lastSkipped, skipped)));
    }

    /**
     * The first point strictly after both {@code now} and {@code lastRunAt} (null: none). For start, enable, edit
     * and the watchdog, which never catch up: only chaining does.
     */
    public static NextOccurrence first(Grid grid, Instant lastRunAt, Instant now) {
        Instant after = lastRunAt != null && lastRunAt.isAfter(now) ? lastRunAt : now;
        return new NextOccurrence(grid.firstAfter(after), 0, Optional.empty());
    }

    /**
     * The last grid point at or before {@code t}, given {@code known}, a grid point at or before t. A grid only
     * answers "first after", and walking forward from {@code known} would cost one step per missed point (a
     * 1-second grid after a day's outage: 86,400), so this bisects the span instead: O(log span) steps.
     */
    static Instant lastAtOrBefore(Grid grid, Instant known, Instant t) {
        Instant lo = known;   // a grid point at or before t
        Instant hi = t;       // no grid point lies in (hi, t]
        while (true) {
            Instant next = grid.firstAfter(lo);
            if (next.isAfter(hi)) {
                return lo;
            }
            lo = next;
            Instant mid = lo.plus(Duration.between(lo, hi).dividedBy(2));
            Instant probe = grid.firstAfter(mid);
            if (probe.isAfter(hi)) {
                hi = mid;
            } else {
                lo = probe;
            }
        }
    }
}
