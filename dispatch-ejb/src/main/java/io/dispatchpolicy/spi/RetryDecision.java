package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** What a {@link RetryFunction} decided: retry after a delay, retry with the exponential delay, or stop (the job is dead). */
public final class RetryDecision {

    private static final RetryDecision STOP = new RetryDecision(null, true);
    private static final RetryDecision EXPONENTIAL = new RetryDecision(null, false);

    private final Duration delay;
    private final boolean stop;

    private RetryDecision(Duration delay, boolean stop) {
        this.delay = delay;
        this.stop = stop;
    }

    public static RetryDecision after(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("A retry delay cannot be negative: " + delay);
        }
        return new RetryDecision(delay, false);
    }

    public static RetryDecision exponential() {
        return EXPONENTIAL;
    }

    public static RetryDecision stop() {
        return STOP;
    }

    public boolean isStop() {
        return stop;
    }

    /** The chosen delay; empty for exponential (and stop). */
    public Optional<Duration> delay() {
        return Optional.ofNullable(delay);
    }
}
