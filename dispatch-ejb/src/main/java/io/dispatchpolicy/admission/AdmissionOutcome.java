package io.dispatchpolicy.admission;

import java.time.Duration;

/**
 * What one partition's admission came to.
 *
 * @param admitted   jobs admitted
 * @param reason     when none were because a gate (or a parameter) said no: why; else null
 * @param retryAfter with {@code reason}: when to look at the partition again
 */
public record AdmissionOutcome(int admitted, String reason, Duration retryAfter) {

    /** Nothing done: another worker holds the partition, it is paused, or nothing is staged after all. */
    public static final AdmissionOutcome SKIPPED = new AdmissionOutcome(0, null, null);

    public static AdmissionOutcome admitted(int n) {
        return new AdmissionOutcome(n, null, null);
    }

    public static AdmissionOutcome denied(String reason, Duration retryAfter) {
        return new AdmissionOutcome(0, reason, retryAfter);
    }

    public boolean denied() {
        return reason != null;
    }
}
