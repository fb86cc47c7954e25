package io.dispatchpolicy.domain.gate;

import java.time.Duration;

/** A gate with its parameters evaluated for one partition (constants, context functions, overrides). */
public sealed interface ResolvedGate {

    /** Keys the gate's state; two gates of one type in a policy have different ids. */
    String id();

    record Throttle(String id, double rate, double perSeconds) implements ResolvedGate {
    }

    record Concurrency(String id, long max, Duration fullBackoff) implements ResolvedGate {
    }

    record Adaptive(String id, AdaptiveCap.Params params) implements ResolvedGate {
    }

    record Quota(String id, long max, io.dispatchpolicy.spi.QuotaPeriod period, java.time.ZoneId zone) implements ResolvedGate {
    }
}
