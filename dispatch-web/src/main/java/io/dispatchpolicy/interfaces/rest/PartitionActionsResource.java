package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import java.time.Instant;
import java.util.Set;

/**
 * A partition for scripts (its id as in the console's links): its state and history, and the operator actions
 * force-admit, drain, pause until a time, resume. Each needs dispatch-operator and is audited; 404 for a partition that does not exist (any more).
 * Overrides are {@link PartitionsResource}'s.
 */
@Path("/partitions/{id: [0-9]+}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PartitionActionsResource {

    /** The most jobs one force-admit takes, as the console's form allows. */
    static final int MAX_FORCE = 10_000;

    @Inject
    @Engine
    PartitionControl control;

    @Inject
    @Engine
    Monitoring monitoring;

    @Context
    SecurityContext security;

    /**
     * One partition as its page shows it: its row, gates, in-flight count and why it waits (a job's pause, a backoff,
     * a held policy…); 404 when there is no such partition (any more).
     */
    @GET
    public Response partition(@PathParam("id") long id) {
        return monitoring.partition(id).<Response>map(p -> Response.ok(Json.createObjectBuilder()
                        .add("id", id).add("policy", p.partition().getPolicyName()).add("partitionKey", p.partition().getPartitionKey())
                        .add("lane", p.partition().getLane()).add("pending", p.partition().getPendingCount()).add("inFlight", p.inFlight())
                        .add("waiting", p.waiting() == null ? jakarta.json.JsonValue.NULL : Json.createValue(p.waiting()))
                        .build().toString()).build())
                .orElseThrow(() -> Problem.notFound("No partition " + id));
    }

    /** As the policy's history, for one partition. */
    @GET
    @Path("history")
    public Response history(@PathParam("id") long id, @QueryParam("minutes") @DefaultValue("120") int minutes) {
        return SummaryResource.history(() -> monitoring.partitionHistory(id, minutes), minutes);
    }

    /**
     * Admits up to {@code count} waiting jobs now, past its gates, budget and pause: {@code {"admitted", "parked",
     * "failures"}}; 409 while the server is suspended (nothing tried).
     */
    @POST
    @Path("admit")
    public String admit(@PathParam("id") long id, @QueryParam("count") @DefaultValue("1") int count) {
        if (count < 1 || count > MAX_FORCE) {
            throw Problem.badField("count", "count is 1 to " + MAX_FORCE + ", was " + count);
        }
        existing(id);
        ForcedAdmission forced = control.forceAdmit(id, count, ApiActor.of(security));
        if (forced.refused() != null) {
            throw Problem.of(jakarta.ws.rs.core.Response.Status.CONFLICT, null, forced.refused());
        }
        var failures = Json.createArrayBuilder();
        forced.failures().forEach(failures::add);
        return Json.createObjectBuilder().add("partition", id).add("admitted", forced.admitted()).add("parked", forced.parked())
                .add("failures", failures).build().toString();
    }

    /** Deletes every staged job of the partition (jobs in flight run on): {@code {"drained": n}}. */
    @POST
    @Path("drain")
    public String drain(@PathParam("id") long id) {
        existing(id);
        return Json.createObjectBuilder().add("partition", id).add("drained", control.drain(id, ApiActor.of(security))).build().toString();
    }

    /**
     * Pauses the partition's key (its lanes too) on every node until {@code until} (an instant or {@code +2h}), with a
     * {@code reason} its "why waiting" shows; replaces a pause in force. Body {@code {"until": "+2h", "reason": "…"}}.
     */
    @POST
    @Path("pause")
    @Consumes(MediaType.APPLICATION_JSON)
    public String pause(@PathParam("id") long id, JsonObject json) {
        JsonBody body = JsonBody.of(json, Set.of("until", "reason"));
        Instant until = body.instant("until");
        if (until == null) {
            throw Problem.badField("until", "until is required: an instant such as 2026-12-01T08:00:00Z, or +30m, +2h, +1d");
        }
        existing(id);
        String said = control.pause(id, until, body.text("reason"), ApiActor.of(security));
        return Json.createObjectBuilder().add("partition", id).add("pause", said).build().toString();
    }

    /** Ends the pause in force, whoever set it (a job or an operator): {@code {"resumed": true|false}}. */
    @POST
    @Path("resume")
    public String resume(@PathParam("id") long id) {
        existing(id);
        return Json.createObjectBuilder().add("partition", id).add("resumed", control.resume(id, ApiActor.of(security))).build().toString();
    }

    private void existing(long id) {
        if (monitoring.partition(id).isEmpty()) {
            throw Problem.notFound("Partition " + id + " does not exist (any more)");
        }
    }
}
