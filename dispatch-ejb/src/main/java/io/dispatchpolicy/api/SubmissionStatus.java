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
 */
public record SubmissionStatus(long submissionId, State state, OptionalLong executionId, Instant since) {

    public enum State { STAGED, ADMITTED, UNKNOWN }

    public static SubmissionStatus unknown(long submissionId) {
        return new SubmissionStatus(submissionId, State.UNKNOWN, OptionalLong.empty(), null);
    }
}
