package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobQuery;
import io.dispatchpolicy.console.jobs.JobRow;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import java.util.List;

/**
 * The Jobs view for scripts (README, "The console"): the same search and the same life as the console's
 * pages, from the same engine calls.
 * {@code curl -u user:password 'http://host:8080/dispatch/api/jobs?by=parameter&value=order%3Do-77'}.
 */
@Path("/jobs")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    @Inject
    @Engine
    JobControl jobs;

    @Context
    SecurityContext security;

    /** A page of jobs, newest submission first; the next page is {@code before=<the last id>}. */
    @GET
    public List<JobRow> find(@QueryParam("by") String by, @QueryParam("value") String value, @QueryParam("policy") String policy,
                             @QueryParam("before") @DefaultValue("0") long before, @QueryParam("limit") @DefaultValue("50") int limit) {
        return jobs.find(new JobQuery(JobQuery.by(by), value, policy, before, limit));
    }

    /** One job's whole life; 404 when there is no such job (any more). */
    @GET
    @Path("{id: [0-9]+}")
    public Response life(@PathParam("id") long id) {
        return jobs.life(id).<Response>map(life -> Response.ok(life).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).type(MediaType.APPLICATION_JSON)
                        .entity(Json.createObjectBuilder().add("error", "No job " + id).build().toString()).build());
    }

    /**
     * Stops the job's running execution, whatever node runs it (ADR 0031): {@code {"message": …}} saying where it
     * runs; the job's page ({@code GET}) then shows the request and when its node delivered it. Needs
     * dispatch-operator (403 otherwise); audited.
     */
    @POST
    @Path("{id: [0-9]+}/stop")
    public Response stop(@PathParam("id") long id) {
        String said = jobs.stop(id, ApiActor.of(security));
        return Response.ok(Json.createObjectBuilder().add("message", said).build().toString()).build();
    }
}
