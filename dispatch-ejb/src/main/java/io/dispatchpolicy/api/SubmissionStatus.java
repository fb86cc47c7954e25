package io.dispatchpolicy.api;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * Where a submission stands.
 *
 * @param submissionId the id {@code start} returned
 * @param state        {@link State#STAGED} while it waits for admission (also a retry waiting for its
 *                     time), {@link State#ADMITTED} once a JBeret execution exists for it, {@link State#DEAD}
 *                     when its execution failed and its policy's retries are spent, {@link State#UNKNOWN}
 *                     when no such submission exists (or its record was swept after the retention period)
 * @param executionId  the JBeret execution id, present once admitted (when dead: the last, failed one)
 * @param since        when it entered its current state
 * @param dueAt        for a staged job submitted with a delay or a time: when it is due (null once due,
 *                     and for every other state)
 * @param attempt      which attempt of the submission this is: 1 for the submitted run, one more for
 *                     each automatic retry (0 when unknown)
 */
public record SubmissionStatus(long submissionId, State state, OptionalLong executionId, Instant since, Instant dueAt,
                               int attempt) {

    /**
     * {@code EXPIRED}: not admitted by its deadline, it never ran; {@code DISCARDED}: taken out of staging by its
     * partition's backlog cap (dropped as the oldest, or replaced by a newer job). Both kept for
     * {@code dispatch.dead-retention}, {@code since} being when it happened (ADR 0036).
     */
    public enum State { STAGED, ADMITTED, DEAD, EXPIRED, DISCARDED, UNKNOWN }

    public static SubmissionStatus unknown(long submissionId) {
        return new SubmissionStatus(submissionId, State.UNKNOWN, OptionalLong.empty(), null, null, 0);
    }
}
