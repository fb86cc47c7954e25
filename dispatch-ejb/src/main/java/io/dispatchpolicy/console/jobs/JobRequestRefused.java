package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.console.RequestRefused;
import jakarta.ejb.ApplicationException;

/**
 * A Jobs view or API request that cannot be answered as asked (a malformed search or submission, an unknown
 * job, an action that does not apply); {@link #field()} names the request's field at fault, when one is.
 */
@ApplicationException(rollback = true)
public class JobRequestRefused extends RequestRefused {

    private static final long serialVersionUID = 3L;

    public JobRequestRefused(String message) {
        super(Why.INPUT, null, message);
    }

    public JobRequestRefused(String field, String message) {
        super(Why.INPUT, field, message);
    }

    private JobRequestRefused(Why why, String field, String message) {
        super(why, field, message);
    }

    /** A well-formed request the engine's state refuses now (a full backlog): the same call may succeed later. */
    public static JobRequestRefused conflict(String message) {
        return new JobRequestRefused(Why.STATE, null, message);
    }

    /** The job named does not exist (any more). */
    public static JobRequestRefused missing(String message) {
        return new JobRequestRefused(Why.MISSING, null, message);
    }
}
