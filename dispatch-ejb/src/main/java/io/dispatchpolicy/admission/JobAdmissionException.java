package io.dispatchpolicy.admission;

import jakarta.ejb.ApplicationException;

/**
 * One staged job could not be admitted (its job XML vanished, its restart is no longer possible…).
 * The partition's admission rolls back; the tick then counts the attempt against that job alone and
 * parks it after {@code dispatch.admission-max-attempts}, so it cannot block its partition.
 */
@ApplicationException(rollback = true)
public class JobAdmissionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long submissionId;

    public JobAdmissionException(long submissionId, Throwable cause) {
        super("Staged job " + submissionId + " could not be admitted: " + cause, cause);
        this.submissionId = submissionId;
    }

    public long submissionId() {
        return submissionId;
    }
}
