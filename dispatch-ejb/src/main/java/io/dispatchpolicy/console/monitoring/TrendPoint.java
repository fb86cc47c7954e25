package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/** Pending jobs at the end of one minute. */
public record TrendPoint(Instant minute, long pending) implements java.io.Serializable {
}
