package io.dispatchpolicy.domain.schedule;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The occurrence to create next, as {@link Chain} plans it.
 *
 * @param runAt      when it runs (its staged job's {@code due_at})
 * @param overdueSeq its place in a run of late occurrences (the one that was live when they began to run late
 *                   is the first, so the first created already due is the second); 0 when it lies in the future
 * @param cut        the missed grid points the chain jumped over (at the catch-up limit, or past their deadline); they
 *                   never run
 */
public record NextOccurrence(Instant runAt, int overdueSeq, Optional<Cut> cut) {

    public NextOccurrence {
        Objects.requireNonNull(runAt, "runAt");
        Objects.requireNonNull(cut, "cut");
        if (overdueSeq < 0) {
            throw new IllegalArgumentException("overdueSeq must be >= 0, was " + overdueSeq);
        }
    }

    /** True when the occurrence is due at once (its time has passed). */
    public boolean overdue() {
        return overdueSeq > 0;
    }

    /**
     * Missed grid points skipped at the catch-up limit, or because their deadline had passed.
     *
     * @param from    the first skipped point
     * @param to      the last skipped point (the last grid point at or before the time of the cut); equal to
     *                {@code from} when only one was skipped
     * @param skipped how many points were skipped, from and to included; {@link #COUNTED_UP_TO} + 1 stands
     *                for "more than that" (a grid counted point by point stops there)
     */
    public record Cut(Instant from, Instant to, long skipped, Why why) {

        /** How far a grid that can only be walked is counted: about a second's work for a cron grid. */
        public static final long COUNTED_UP_TO = 1_000_000;

        /** Why the points were skipped. */
        public enum Why {
            /** the catch-up limit was reached: {@link Chain#CATCH_UP_LIMIT} late runs in a row */
            CATCH_UP_LIMIT,
            /** their deadline had passed before they could be created: they could never be admitted */
            PAST_DEADLINE
        }

        /** Points skipped at the catch-up limit. */
        public Cut(Instant from, Instant to, long skipped) {
            this(from, to, skipped, Why.CATCH_UP_LIMIT);
        }

        public Cut {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(why, "why");
            if (to.isBefore(from)) {
                throw new IllegalArgumentException("cut ends (" + to + ") before it starts (" + from + ")");
            }
            if (skipped < 1) {
                throw new IllegalArgumentException("a cut skips at least one point, was " + skipped);
            }
        }

        /** The count as a person reads it: "1880", or "more than 1000000". */
        public String skippedText() {
            return skipped > COUNTED_UP_TO ? "more than " + COUNTED_UP_TO : Long.toString(skipped);
        }
    }
}
