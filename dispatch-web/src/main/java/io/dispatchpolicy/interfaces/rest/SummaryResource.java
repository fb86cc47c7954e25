package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.application.monitoring.Monitoring;
import io.dispatchpolicy.application.monitoring.PolicySummary;
import jakarta.enterprise.context.RequestScoped;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** The dashboard's figures as JSON: {@code curl -u user:password http://host:8080/dispatch/api/summary}. */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SummaryResource {

    @Inject
    @Engine
    Monitoring monitoring;

    /**
     * The dashboard's figures; when the database cannot be read, 503 with what this node knows
     * without it (since when the database is unreachable, when its last tick succeeded).
     */
    @GET
    @Path("summary")
    public Response summary() {
        try {
            return Response.ok(monitoring.summary()).build();
        } catch (RuntimeException databaseUnreachable) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).entity(monitoring.nodeStatus()).build();
        }
    }

    @GET
    @Path("policies")
    public List<PolicySummary> policies() {
        return monitoring.policies();
    }
}
