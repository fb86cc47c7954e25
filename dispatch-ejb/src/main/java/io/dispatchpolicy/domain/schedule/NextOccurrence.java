package io.dispatchpolicy.domain.schedule;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The occurrence to create next, as {@link Chain} plans it.
 *
 * @param runAt      when it runs (its staged job's {@code due_at})
 * @param overdueSeq how many consecutive occurrences, this one included, were created already due; 0 when it
 *                   lies in the future
 * @param cut        the missed grid points the chain jumped over at the catch-up limit; they never run
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
     * Missed grid points skipped at the catch-up limit.
     *
     * @param from the first skipped point
     * @param to   the last skipped point (the last grid point at or before the time of the cut); equal to
     *             {@code from} when only one was skipped
     */
    public record Cut(Instant from, Instant to) {

        public Cut {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            if (to.isBefore(from)) {
                throw new IllegalArgumentException("cut ends (" + to + ") before it starts (" + from + ")");
            }
        }
    }
}
