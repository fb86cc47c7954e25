package io.dispatchpolicy.spi;

import java.time.Duration;

/**
 * A waiting job gains {@code step} priority for every {@code every} it waits, up to {@code cap} (a job
 * submitted at or above the cap does not age). Declared with {@link Policy.Builder#agePriority}.
 */
public record PriorityAging(Duration every, int step, int cap) {

    public PriorityAging {
        if (every == null || every.toMillis() < 1) {
            throw new PolicyDeclarationException("agePriority: every must be at least 1 ms, was " + every);
        }
        if (step < 1) {
            throw new PolicyDeclarationException("agePriority: step must be >= 1, was " + step);
        }
    }
}
