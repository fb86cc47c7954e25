package io.dispatchpolicy.schedule;

import java.time.Instant;

/** A schedule's live future occurrence: its id, time, overdue count, and its staged row's partition (null when drained). */
public record LiveOccurrence(long submissionId, Instant runAt, int overdueSeq, Long partitionId) {
}
