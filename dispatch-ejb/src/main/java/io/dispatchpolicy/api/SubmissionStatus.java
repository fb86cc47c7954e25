package io.dispatchpolicy.api;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * Where a submission stands.
 *
 * @param submissionId the id {@code start} returned
 * @param state        {@link State#STAGED} while it waits for admission, {@link State#ADMITTED} once a
 *                     JBeret execution exists for it, {@link State#UNKNOWN} when no such submission exists
 *                     (or its record was swept after the retention period)
 * @param executionId  the JBeret execution id, present once admitted
 * @param since        when it entered its current state
 * @param dueAt        for a staged job submitted with a delay or a time: when it is due (null once due,
 *                     and for every other state)
 */
public record SubmissionStatus(long submissionId, State state, OptionalLong executionId, Instant since, Instant dueAt) {

    public enum State { STAGED, ADMITTED, UNKNOWN }

    public static SubmissionStatus unknown(long submissionId) {
        return new SubmissionStatus(submissionId, State.UNKNOWN, OptionalLong.empty(), null, null);
    }
}
