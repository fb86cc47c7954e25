package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.audit.AuditEntry;
import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.audit.AuditQuery;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * The audit log for scripts (the guide, "Permissions and audit"): who did what, when, on which object, before and
 * after, newest first; every filter optional.
 * {@code curl -u user:password 'http://host:8080/dispatch/api/audit?targetKind=partition&target=42'}.
 */
@Path("/audit")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    @Inject
    @Engine
    AuditLog audit;

    @GET
    public List<AuditEntry> find(@QueryParam("actor") String actor, @QueryParam("action") String action,
                                 @QueryParam("targetKind") String targetKind, @QueryParam("target") String target,
                                 @QueryParam("limit") @DefaultValue("100") int limit) {
        return audit.find(new AuditQuery(actor, action, targetKind, target, limit));
    }
}
