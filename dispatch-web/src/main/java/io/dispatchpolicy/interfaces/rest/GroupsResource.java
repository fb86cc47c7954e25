package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * Groups of jobs (ADR 0052): a group's progress — its members staged, running, completed, failed (dead), stopped,
 * discarded, and its callbacks — and its cancel (dispatch-operator, audited).
 */
@Path("/groups")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class GroupsResource {

    @Inject
    @Engine
    JobControl jobs;

    @Context
    SecurityContext security;

    /** The group's progress; 404 when no group has this id (any more). */
    @GET
    @Path("{id: [0-9]+}")
    public GroupStatus group(@PathParam("id") long id) {
        return existing(id);
    }

    /** Cancels the group: its staged members discarded, no callback run; {@code {"message": …}}; 409 once ended or cancelled. */
    @POST
    @Path("{id: [0-9]+}/cancel")
    public Response cancel(@PathParam("id") long id) {
        GroupStatus g = existing(id);
        if (g.cancelledAt() != null || g.endedAt() != null) {
            throw Problem.of(Response.Status.CONFLICT, null, "Group " + id + " has " + (g.cancelledAt() != null ? "been cancelled" : "ended")
                    + " already: nothing to cancel");
        }
        return Response.ok(Json.createObjectBuilder().add("message", jobs.cancelGroup(id, ApiActor.of(security))).build().toString()).build();
    }

    private GroupStatus existing(long id) {
        return jobs.group(id).orElseThrow(() -> Problem.notFound("No group " + id + " (never submitted, or removed after its retention)"));
    }
}
