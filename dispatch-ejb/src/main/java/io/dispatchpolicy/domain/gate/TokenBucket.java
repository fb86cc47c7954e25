package io.dispatchpolicy.domain.gate;

import java.time.Duration;

/**
 * The throttle gate: a token bucket per partition holding up to {@code rate} tokens (never less than
 * one, so a rate below one per period still admits a job every {@code per / rate}), refilled lazily on
 * read at {@code rate / per} tokens per second, full when first seen. Only jobs actually admitted are
 * charged.
 */
public final class TokenBucket {

    public static final String EMPTY = "throttle_empty";

    /** A throttle whose rate is zero or negative is re-checked this often, not every tick. */
    public static final Duration DISABLED_BACKOFF = Duration.ofSeconds(60);

    /** Stored state: tokens left and when they were counted. */
    public record State(double tokens, long atMillis) {
    }

    private TokenBucket() {
    }

    public static double capacity(double rate) {
        return Math.max(rate, 1.0);
    }

    /** The bucket as of {@code nowMillis}. */
    public static State refill(State stored, double rate, double perSeconds, long nowMillis) {
        double capacity = capacity(rate);
        if (stored == null || rate <= 0) {
            return new State(stored == null ? capacity : Math.min(stored.tokens(), capacity), nowMillis);
        }
        double elapsedSeconds = Math.max(0, nowMillis - stored.atMillis()) / 1000.0;
        double tokens = Math.min(capacity, stored.tokens() + elapsedSeconds * rate / perSeconds);
        return new State(tokens, Math.max(nowMillis, stored.atMillis()));
    }

    public static GateCheck check(State refilled, double rate, double perSeconds) {
        return check(refilled, rate, perSeconds, 1);
    }

    /**
     * The bucket's verdict for a job that costs {@code need} tokens (issue 35, a job's cost): denied until
     * that many are there, and asked again when they will be.
     */
    public static GateCheck check(State refilled, double rate, double perSeconds, int need) {
        if (rate <= 0) {
            return GateCheck.deny(EMPTY, DISABLED_BACKOFF);
        }
        long whole = (long) Math.floor(refilled.tokens() + 1e-9);
        if (whole >= need) {
            return GateCheck.allow(whole);
        }
        double secondsToNeed = (need - refilled.tokens()) * perSeconds / rate;
        return GateCheck.deny(EMPTY, Duration.ofMillis((long) Math.ceil(secondsToNeed * 1000)));
    }

    /** When a bucket in this state is full again, in epoch millis (its own time when it is full now). */
    public static long fullAtMillis(State state, double rate, double perSeconds) {
        double missing = capacity(rate) - state.tokens();
        if (rate <= 0 || missing <= 0) {
            return state.atMillis();
        }
        return state.atMillis() + (long) Math.ceil(missing * perSeconds / rate * 1000);
    }

    /** Charges the tokens of the jobs admitted (their cost, one each by default) to a refilled bucket. */
    public static State charge(State refilled, int tokens) {
        return new State(Math.max(0, refilled.tokens() - tokens), refilled.atMillis());
    }
}
