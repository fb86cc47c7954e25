package io.dispatchpolicy.console.audit;

import java.util.List;

/** The audit log as the console and the API read it. */
public interface AuditLog {

    /** Rows matching the query, newest first. */
    List<AuditEntry> find(AuditQuery query);
}
