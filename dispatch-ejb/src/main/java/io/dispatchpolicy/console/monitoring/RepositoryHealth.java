package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * JBeret's repository as the retention keeps it (ADR 0015).
 *
 * @param instancesPruned  job instances deleted since the engine was installed
 * @param executionsPruned their executions
 * @param lastPrunedAt     when the last ones were deleted; null before the first
 * @param oldestKept       when the oldest execution still kept was created; null when there is none
 * @param retention        the retentions in force, as the console says them
 */
public record RepositoryHealth(long instancesPruned, long executionsPruned, Instant lastPrunedAt, Instant oldestKept,
                               String retention) implements java.io.Serializable {
}
