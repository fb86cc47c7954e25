package io.dispatchpolicy.domain.gate;

import java.time.Duration;

/**
 * The adaptive concurrency gate: a per-partition cap steered by AIMD on queue lag (admission to job
 * start, the wait inside the batch thread pool).
 *
 * <p>After each job: {@code ewma = ewma·(1−α) + α·lag} with α = 0.5, then the cap becomes
 * {@code max(min, failed ? floor(cap·0.5) : ewma > target ? floor(cap·0.95) : cap + 1)}, capped by the
 * optional ceiling. With nothing in flight the gate allows at least {@code initialMax}, so a partition
 * shrunk during a burst can grow again once idle — but not while its latest job failed, or the valve
 * would cancel the failure shrink.
 */
public final class AdaptiveCap {

    public static final String FULL = "adaptive_concurrency_full";
    public static final double ALPHA = 0.5;
    /** A full partition is checked again after this long; completions free slots at any moment. */
    public static final Duration FULL_BACKOFF = Duration.ofSeconds(1);

    /** Stored state per partition and gate. */
    public record State(int currentMax, double ewmaLagMs, int consecutiveFailures) {
    }

    /** Resolved parameters; {@code ceiling} 0 means none. */
    public record Params(int initialMax, double targetLagMs, int min, int ceiling) {
        public int bounded(long cap) {
            long bounded = Math.max(min, cap);
            if (ceiling > 0) {
                bounded = Math.min(ceiling, bounded);
            }
            return (int) Math.min(Integer.MAX_VALUE, bounded);
        }
    }

    private AdaptiveCap() {
    }

    public static State seed(Params p) {
        return new State(p.bounded(p.initialMax()), 0.0, 0);
    }

    public static GateCheck check(State state, Params p, long inFlight) {
        State s = state == null ? seed(p) : state;
        long allowed = s.currentMax() - inFlight;
        if (inFlight == 0 && s.consecutiveFailures() == 0) {
            allowed = Math.max(allowed, p.initialMax());
        }
        return allowed > 0 ? GateCheck.allow(allowed) : GateCheck.deny(FULL, FULL_BACKOFF);
    }

    /** The state after one finished job that waited {@code lagMs} in the queue. */
    public static State observe(State state, Params p, double lagMs, boolean failed) {
        State s = state == null ? seed(p) : state;
        double ewma = s.ewmaLagMs() * (1 - ALPHA) + ALPHA * Math.max(0, lagMs);
        long cap;
        if (failed) {
            cap = (long) Math.floor(s.currentMax() * 0.5);
        } else if (ewma > p.targetLagMs()) {
            cap = (long) Math.floor(s.currentMax() * 0.95);
        } else {
            cap = (long) s.currentMax() + 1;
        }
        return new State(p.bounded(cap), ewma, failed ? s.consecutiveFailures() + 1 : 0);
    }
}
