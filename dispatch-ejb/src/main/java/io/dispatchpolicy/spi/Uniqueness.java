package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a uniqueness key covers (ADR 0036): while the submission that holds the key is in one of these
 * states, a submission with the same key (of the same policy) is a duplicate — it stages nothing and gets the
 * holder's submission id. {@link State#STAGED} is always covered; {@link State#COMPLETED} covers a holder
 * whose last execution completed less than {@code window} ago (it needs a window, and a window needs it). A
 * holder that failed, was stopped, died, expired or was discarded lets its key go at once.
 *
 * @param window how long after its completion a holder keeps its key; null without {@link State#COMPLETED}
 * @param covers the states covered
 */
public record Uniqueness(Duration window, Set<State> covers) {

    /** The longest window: a year. */
    public static final Duration MAX_WINDOW = Duration.ofDays(366);

    /** A submission's state as a uniqueness key sees it. */
    public enum State {
        /** staged: waiting, scheduled, retrying or parked */
        STAGED,
        /** admitted and not ended */
        RUNNING,
        /** its last execution COMPLETED, within the window */
        COMPLETED;

        int bit() {
            return 1 << ordinal();
        }
    }

    /** Staged or running: the default. */
    public static final Uniqueness WHILE_LIVE = new Uniqueness(null, EnumSet.of(State.STAGED, State.RUNNING));

    public Uniqueness {
        covers = covers == null || covers.isEmpty() ? EnumSet.of(State.STAGED, State.RUNNING) : Set.copyOf(covers);
        if (!covers.contains(State.STAGED)) {
            throw new IllegalArgumentException("a uniqueness key covers STAGED always: covers " + covers + " lacks it");
        }
        if (covers.contains(State.COMPLETED) != (window != null)) {
            throw new IllegalArgumentException(window == null ? "COMPLETED is covered within a window: give one"
                    : "a window is of COMPLETED: it must be covered too (" + covers + ")");
        }
        if (window != null && (window.isZero() || window.isNegative() || window.compareTo(MAX_WINDOW) > 0)) {
            throw new IllegalArgumentException("the window must be more than 0 and at most " + MAX_WINDOW.toDays() + " days, was " + window);
        }
    }

    /** Staged, running, and completed less than {@code window} ago. */
    public static Uniqueness within(Duration window) {
        if (window == null) {
            throw new IllegalArgumentException("the window must not be null");
        }
        return new Uniqueness(window, EnumSet.allOf(State.class));
    }

    /** Exactly these states (STAGED among them); {@code window} for COMPLETED, else null. */
    public static Uniqueness covering(Duration window, State... states) {
        return new Uniqueness(window, states.length == 0 ? null : EnumSet.copyOf(Set.of(states)));
    }

    /** The covered states as the database keeps them: 1 staged, 2 running, 4 completed. */
    public int coverBits() {
        int bits = 0;
        for (State s : covers) {
            bits |= s.bit();
        }
        return bits;
    }
}
