package io.dispatchpolicy.admission;

import java.time.Duration;

/**
 * What one partition's admission came to.
 *
 * @param admitted   jobs admitted
 * @param slots      the slots (batch threads) they take: the sum of their costs (ADR 0035)
 * @param reason     when none were because a gate (or a parameter) said no: why; else null
 * @param retryAfter with {@code reason}: when to look at the partition again
 * @param needs      when none were because its next job needs more of this node's free threads than the
 *                   admission was given: that job's cost; else 0
 */
public record AdmissionOutcome(int admitted, int slots, String reason, Duration retryAfter, int needs) {

    /** Nothing done: another worker holds the partition, it is paused, or nothing is staged after all. */
    public static final AdmissionOutcome SKIPPED = new AdmissionOutcome(0, 0, null, null, 0);

    /** {@code n} jobs of cost 1. */
    public static AdmissionOutcome admitted(int n) {
        return admitted(n, n);
    }

    public static AdmissionOutcome admitted(int n, int slots) {
        return new AdmissionOutcome(n, slots, null, null, 0);
    }

    public static AdmissionOutcome denied(String reason, Duration retryAfter) {
        return new AdmissionOutcome(0, 0, reason, retryAfter, 0);
    }

    /** Its next job needs {@code threads} free threads of this node, more than it was given. */
    public static AdmissionOutcome needsThreads(int threads) {
        return new AdmissionOutcome(0, 0, null, null, threads);
    }

    public boolean denied() {
        return reason != null;
    }
}
