package io.dispatchpolicy.console.audit;

import java.io.Serializable;

/**
 * A filter of the audit log, newest first; a null or blank field matches everything.
 *
 * @param limit at most this many rows (1 to 1000)
 */
public record AuditQuery(String actor, String action, String targetKind, String target, int limit) implements Serializable {

    public AuditQuery {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be 1 to 1000, was " + limit);
        }
        if (action != null && !action.isBlank()) {
            try {
                OperatorAction.valueOf(action);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Unknown action '" + action + "'; one of "
                        + java.util.Arrays.toString(OperatorAction.values()), e);
            }
        }
    }

    public static AuditQuery all(int limit) {
        return new AuditQuery(null, null, null, null, limit);
    }
}
