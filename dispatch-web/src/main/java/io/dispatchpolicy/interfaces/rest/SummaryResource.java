package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.application.monitoring.Monitoring;
import io.dispatchpolicy.application.monitoring.PolicySummary;
import io.dispatchpolicy.application.monitoring.Summary;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** The dashboard's figures as JSON: {@code curl -u user:password http://host:8080/dispatch/api/summary}. */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SummaryResource {

    @Inject
    Monitoring monitoring;

    @GET
    @Path("summary")
    public Summary summary() {
        return monitoring.summary();
    }

    @GET
    @Path("policies")
    public List<PolicySummary> policies() {
        return monitoring.policies();
    }
}
