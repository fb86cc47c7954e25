package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.LimitView;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * The named limits (the guide, "Named limits"; ADR 0049): each with its values in force, the policies that reference
 * it, its slots in flight in all and its busiest keys, its buckets. Declared in code or standalone.xml, not here.
 */
@Path("/limits")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LimitsResource {

    @Inject
    @Engine
    Monitoring monitoring;

    @GET
    public List<LimitView> limits() {
        return monitoring.limits();
    }
}
