package io.dispatchpolicy.domain.gate;

import java.time.Duration;

/** The concurrency gate: at most {@code max} admitted-but-unfinished jobs per partition. */
public final class ConcurrencyCap {

    public static final String FULL = "concurrency_full";

    private ConcurrencyCap() {
    }

    public static GateCheck check(long max, long inFlight, Duration fullBackoff) {
        long free = max - inFlight;
        return free > 0 ? GateCheck.allow(free) : GateCheck.deny(FULL, fullBackoff);
    }
}
