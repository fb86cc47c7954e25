package io.dispatchpolicy.follow;

import java.time.Instant;

/**
 * A follower of a submission as the Jobs view shows it: the job it stages on which end of its predecessor,
 * and what became of it — waiting, staged (as {@code submissionId}), skipped (the end did not match), refused
 * (its staging was refused then; {@code detail} says why).
 */
public record Follower(long id, long afterSubmission, String onEnd, String jobName, String state, Long submissionId,
                       String detail, Instant createdAt, Instant decidedAt) {
}
