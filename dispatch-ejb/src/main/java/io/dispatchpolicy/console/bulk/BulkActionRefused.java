package io.dispatchpolicy.console.bulk;

import io.dispatchpolicy.console.RequestRefused;
import jakarta.ejb.ApplicationException;

/** A bulk action's request that cannot be run as asked; {@link #field()} names the filter's criterion at fault. */
@ApplicationException(rollback = true)
public class BulkActionRefused extends RequestRefused {

    private static final long serialVersionUID = 1L;

    public BulkActionRefused(String field, String message) {
        super(Why.INPUT, field, message);
    }

    private BulkActionRefused(Why why, String message) {
        super(why, null, message);
    }

    /** No bulk action has this id. */
    public static BulkActionRefused missing(long id) {
        return new BulkActionRefused(Why.MISSING, "No bulk action " + id);
    }

    /** The action is no longer in a state to do this (cancel one that ended). */
    public static BulkActionRefused state(String message) {
        return new BulkActionRefused(Why.STATE, message);
    }
}
