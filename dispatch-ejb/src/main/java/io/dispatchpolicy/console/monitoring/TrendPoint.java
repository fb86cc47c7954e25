package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * Pending jobs at the end of one minute.
 *
 * @param pending null when no tick ran in that minute (no node sampled it): drawn as a gap, not as a guess
 */
public record TrendPoint(Instant minute, Long pending) implements java.io.Serializable {
}
