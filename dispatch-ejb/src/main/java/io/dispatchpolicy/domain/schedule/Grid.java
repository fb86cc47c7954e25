package io.dispatchpolicy.domain.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When a schedule runs: a strictly increasing sequence of instants. Implementations are immutable and need no
 * clock, so the same grid gives the same answer on every node.
 */
public interface Grid {

    /**
     * The first grid point strictly after {@code t}.
     *
     * @throws IllegalStateException when the grid has no point after {@code t} (a cron expression that no
     *                               longer matches)
     */
    Instant firstAfter(Instant t);

    /**
     * How many grid points lie in {@code [from, to]}, {@code from} being a grid point; at most {@code limit} + 1
     * (then "more than {@code limit}"). This walks the points, one {@link #firstAfter} each; a grid that can
     * count them by arithmetic says so.
     */
    default long count(Instant from, Instant to, long limit) {
        long n = 0;
        for (Instant t = from; !t.isAfter(to) && n <= limit; t = firstAfter(t)) {
            n++;
        }
        return n;
    }

    /** The next {@code n} grid points strictly after {@code after}, in order. */
    default List<Instant> nextRunTimes(Instant after, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, was " + n);
        }
        List<Instant> times = new ArrayList<>(n);
        Instant t = after;
        for (int i = 0; i < n; i++) {
            t = firstAfter(t);
            times.add(t);
        }
        return times;
    }
}
