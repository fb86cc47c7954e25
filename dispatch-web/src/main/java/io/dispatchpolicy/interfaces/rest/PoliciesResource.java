package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/**
 * A policy for scripts: its history, and the operator actions its console page offers: pause (nothing of it is admitted, on
 * any node, until resumed), resume, drain (every staged job of it deleted; jobs in flight run on). Each needs
 * dispatch-operator and is audited; each answers the policy's state after it. Repeating one is harmless.
 */
@Path("/policies/{name}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PoliciesResource {

    @Inject
    @Engine
    PolicyControl control;

    @Inject
    @Engine
    Monitoring monitoring;

    @Context
    SecurityContext security;

    /** A policy's admitted, completed and failed jobs per minute, as its page charts them (oldest first). */
    @GET
    @Path("history")
    public Response history(@PathParam("name") String name, @QueryParam("minutes") @DefaultValue("120") int minutes) {
        return SummaryResource.history(() -> monitoring.policyHistory(name, minutes), minutes);
    }

    @POST
    @Path("pause")
    public String pause(@PathParam("name") String name) {
        known(name);
        control.pause(name, ApiActor.of(security));
        return state(name, true);
    }

    @POST
    @Path("resume")
    public String resume(@PathParam("name") String name) {
        known(name);
        control.resume(name, ApiActor.of(security));
        return state(name, false);
    }

    /** {@code {"policy": …, "drained": n}}: how many staged jobs were deleted. */
    @POST
    @Path("drain")
    public String drain(@PathParam("name") String name) {
        known(name);
        int drained = control.drain(name, ApiActor.of(security));
        return Json.createObjectBuilder().add("policy", name).add("drained", drained).build().toString();
    }

    private void known(String name) {
        // the declared names only: policies() would compute every policy's summary (denials, top partitions) to look one up
        if (!monitoring.policyNames().contains(name)) {
            throw Problem.notFound("No policy named '" + name + "' is declared");
        }
    }

    private static String state(String name, boolean paused) {
        return Json.createObjectBuilder().add("policy", name).add("paused", paused).build().toString();
    }
}
