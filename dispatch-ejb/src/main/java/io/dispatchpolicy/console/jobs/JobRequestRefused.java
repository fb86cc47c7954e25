package io.dispatchpolicy.console.jobs;

import jakarta.ejb.ApplicationException;

/** A Jobs view request that cannot be answered as asked (a malformed search, an unknown job, an action that does not apply). */
@ApplicationException(rollback = true)
public class JobRequestRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JobRequestRefused(String message) {
        super(message);
    }
}
