package io.dispatchpolicy.api;

import jakarta.batch.operations.JobStartException;
import jakarta.ejb.ApplicationException;

/**
 * A submission was refused at the boundary: unknown job, invalid parameters, a policy's context
 * function that failed, or a missing partition key. Nothing of the call was staged.
 *
 * <p>It is a {@link JobStartException}, so code written against {@code JobOperator.start} already
 * handles it. Every check runs before anything is written, so it is an application exception that
 * leaves the caller's transaction usable.
 */
@ApplicationException
public class SubmissionRejectedException extends JobStartException {
    private static final long serialVersionUID = 1L;

    public SubmissionRejectedException(String message) {
        super(message);
    }

    public SubmissionRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
