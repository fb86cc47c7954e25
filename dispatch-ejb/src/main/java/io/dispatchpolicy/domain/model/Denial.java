package io.dispatchpolicy.domain.model;

import java.time.Duration;

/**
 * A partition the tick did not admit from, as written back in one statement per iteration.
 *
 * @param partitionId             the partition
 * @param reason                  a gate's reason, {@code tick_cap_exhausted}, or {@code admission_failed}
 * @param retryAfter              how long it is not claimed again; zero for none
 * @param restoreCheckedAtMillis  when non-zero, its {@code last_checked_at} goes back to this value so
 *                                it stays at the front of the next claim
 */
public record Denial(long partitionId, String reason, Duration retryAfter, long restoreCheckedAtMillis) {

    public static final String TICK_CAP_EXHAUSTED = "tick_cap_exhausted";
    public static final String ADMISSION_FAILED = "admission_failed";
}
