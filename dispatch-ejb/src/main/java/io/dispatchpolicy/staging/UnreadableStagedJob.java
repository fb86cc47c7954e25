package io.dispatchpolicy.staging;

/**
 * A staged row that cannot be read back (its parameters hold something other than strings: a data
 * migration or a hand edit did it). It names the row, so admission counts the failure against that
 * row and parks it, and its neighbours flow.
 */
public class UnreadableStagedJob extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long submissionId;

    UnreadableStagedJob(long submissionId, RuntimeException cause) {
        super("Staged job " + submissionId + " cannot be read: " + cause.getMessage(), cause);
        this.submissionId = submissionId;
    }

    public long submissionId() {
        return submissionId;
    }
}
