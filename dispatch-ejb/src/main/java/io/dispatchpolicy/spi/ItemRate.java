package io.dispatchpolicy.spi;

import java.time.Duration;

/**
 * A policy's item-level throttle (ADR 0034): at most {@code rate} items per {@code per} per partition, across every
 * running job of the partition on every node, drawn by chunk steps that use the engine's listener
 * ({@code dispatchItemThrottle}) or {@code io.dispatchpolicy.api.ItemThrottle}; a full bucket holds {@code burst}.
 *
 * @param rate  items per {@code per}, more than 0
 * @param per   the period, more than 0
 * @param burst what a full bucket holds: at least 1, by default {@code rate}
 */
public record ItemRate(double rate, Duration per, double burst) {

    public ItemRate {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new PolicyDeclarationException("An item throttle's rate must be more than 0, was " + rate);
        }
        if (per == null || per.isZero() || per.isNegative()) {
            throw new PolicyDeclarationException("An item throttle's period must be more than 0, was " + per);
        }
        if (!(burst >= 1) || Double.isInfinite(burst)) {
            throw new PolicyDeclarationException("An item throttle's burst must be at least 1, was " + burst);
        }
    }

    /** {@code rate} items per {@code per}, a bucket of {@code rate} (at least 1). */
    public static ItemRate of(double rate, Duration per) {
        return new ItemRate(rate, per, Math.max(1, rate));
    }

    /** Items per second. */
    public double perSecond() {
        return rate / (per.toNanos() / 1e9);
    }
}
