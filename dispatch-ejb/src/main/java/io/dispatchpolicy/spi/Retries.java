package io.dispatchpolicy.spi;

import jakarta.batch.runtime.JobExecution;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a governed job whose execution ends FAILED is retried: a Jakarta Batch restart of that
 * execution (chunk steps resume from their last checkpoint), staged through the policy with a
 * "not before" time of the failure plus the delay chosen here. After {@link #maxRetries()} retries, or
 * when a {@link #custom custom} function says {@link RetryDecision#stop() stop}, the job is dead.
 *
 * <p>Retry {@code n} counts from 0: the first retry is retry 0.
 */
public final class Retries {

    /** Retries when a retry policy is declared without a limit. */
    public static final int DEFAULT_MAX_RETRIES = 10;

    private static final Retries NONE = new Retries(Kind.NONE, null, null, 0, null);

    private enum Kind { NONE, FIXED, EXPONENTIAL, CUSTOM }

    private final Kind kind;
    private final Duration interval;
    private final RetryFunction function;
    private final int maxRetries;
    private final String lane;

    private Retries(Kind kind, Duration interval, RetryFunction function, int maxRetries, String lane) {
        this.kind = kind;
        this.interval = interval;
        this.function = function;
        this.maxRetries = maxRetries;
        this.lane = lane;
    }

    /** No retry (the default of a policy): a failed job stays FAILED as JBeret left it, not retried and not dead. */
    public static Retries none() {
        return NONE;
    }

    /** The same delay before every retry. */
    public static Retries fixed(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative()) {
            throw new PolicyDeclarationException("A retry interval cannot be negative: " + interval);
        }
        return new Retries(Kind.FIXED, interval, null, DEFAULT_MAX_RETRIES, null);
    }

    /** {@link #exponentialDelay(int) 30 s + n⁵ s} before retry n: 30 s, 31 s, 62 s, 273 s, 1054 s, … */
    public static Retries exponential() {
        return new Retries(Kind.EXPONENTIAL, null, null, DEFAULT_MAX_RETRIES, null);
    }

    /** The function decides each retry's delay, or falls back to exponential, or stops. */
    public static Retries custom(RetryFunction function) {
        return new Retries(Kind.CUSTOM, null, Objects.requireNonNull(function, "function"), DEFAULT_MAX_RETRIES, null);
    }

    /** The same policy with at most {@code max} retries (0: none; the job is dead after its first failure). */
    public Retries maxRetries(int max) {
        if (max < 0) {
            throw new PolicyDeclarationException("maxRetries cannot be negative: " + max);
        }
        return kind == Kind.NONE ? this : new Retries(kind, interval, function, max, lane);
    }

    /** The same policy, with retries going to lane {@code lane} of the policy instead of the failed job's own. */
    public Retries inLane(String lane) {
        if (lane == null || lane.isBlank()) {
            throw new PolicyDeclarationException("Retries.inLane: the lane must be named");
        }
        return kind == Kind.NONE ? this : new Retries(kind, interval, function, maxRetries, lane.strip());
    }

    /** The lane retries go to; empty: the failed job's own lane. */
    public Optional<String> lane() {
        return Optional.ofNullable(lane);
    }

    public int maxRetries() {
        return maxRetries;
    }

    /** False for {@link #none()}, whatever the limit. */
    public boolean declared() {
        return kind != Kind.NONE;
    }

    /** True when at least one retry can happen. */
    public boolean retries() {
        return kind != Kind.NONE && maxRetries > 0;
    }

    /** The delay before retry {@code n}: {@code 30 + n⁵} seconds. */
    public static Duration exponentialDelay(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("retry " + n);
        }
        // held at n = 1,000 (31,700 years): n⁵ would overflow a long past 6,208
        long m = Math.min(n, 1_000);
        return Duration.ofSeconds(30 + m * m * m * m * m);
    }

    /**
     * The delay before retry {@code n} of a job whose execution {@code failed}; empty when the job is
     * dead instead (its retries are spent, or the custom function stopped it).
     */
    public Optional<Duration> delayBefore(int n, JobExecution failed) {
        if (kind == Kind.NONE || n >= maxRetries) {
            return Optional.empty();
        }
        return switch (kind) {
            case FIXED -> Optional.of(interval);
            case EXPONENTIAL -> Optional.of(exponentialDelay(n));
            case CUSTOM -> {
                RetryDecision decision = function.decide(failed, n);
                if (decision == null || decision.isStop()) {
                    yield Optional.empty();
                }
                yield Optional.of(decision.delay().orElseGet(() -> exponentialDelay(n)));
            }
            default -> Optional.empty();
        };
    }

    /** As declared in standalone.xml's terms: {@code none}, {@code exponential}, {@code custom} or the interval in seconds. */
    public String describe() {
        return switch (kind) {
            case NONE -> "none";
            case FIXED -> (interval.toMillis() / 1000.0) + " s";
            case EXPONENTIAL -> "exponential";
            case CUSTOM -> "custom";
        } + (kind == Kind.NONE ? "" : ", at most " + maxRetries + " retries" + (lane == null ? "" : ", in lane " + lane));
    }

    @Override
    public String toString() {
        return "Retries[" + describe() + "]";
    }
}
