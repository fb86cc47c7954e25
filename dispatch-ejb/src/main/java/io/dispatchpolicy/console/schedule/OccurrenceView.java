package io.dispatchpolicy.console.schedule;

import java.time.Instant;

/**
 * One occurrence of a schedule.
 *
 * @param kind         grid (on the schedule's grid) or extra (run now)
 * @param state        future, admitted, skipped or superseded
 * @param reason       why it was skipped or superseded (operator, edited, disabled, deleted, drained…)
 * @param executionId  its JBeret execution once admitted, else null
 * @param batchStatus  that execution's batch status, else null
 */
public record OccurrenceView(long submissionId, String kind, String state, Instant runAt, Instant endedAt, String reason,
                             Long executionId, String batchStatus) implements java.io.Serializable {
}
