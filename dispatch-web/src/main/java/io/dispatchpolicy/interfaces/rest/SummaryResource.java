package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.monitoring.DenialRow;
import io.dispatchpolicy.console.monitoring.HistoryPoint;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PolicySummary;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.interfaces.engine.EngineUnavailableException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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
        } catch (EngineUnavailableException noEngine) {
            throw noEngine;
        } catch (RuntimeException databaseUnreachable) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).entity(monitoring.nodeStatus()).build();
        }
    }

    @GET
    @Path("policies")
    public List<PolicySummary> policies() {
        return monitoring.policies();
    }

    /** A policy's admitted, completed and failed jobs per minute, as its page charts them (oldest first). */
    @GET
    @Path("policies/{name}/history")
    public Response policyHistory(@PathParam("name") String name, @QueryParam("minutes") @DefaultValue("120") int minutes) {
        return history(() -> monitoring.policyHistory(name, minutes), minutes);
    }

    /**
     * One partition as its page shows it: its row, gates, in-flight count and why it waits (a job's pause, a backoff,
     * a held policy…); 404 when there is no such partition (any more).
     */
    @GET
    @Path("partitions/{id: [0-9]+}")
    public Response partition(@PathParam("id") long id) {
        return monitoring.partition(id).<Response>map(p -> Response.ok(jakarta.json.Json.createObjectBuilder()
                        .add("id", id).add("policy", p.partition().getPolicyName()).add("partitionKey", p.partition().getPartitionKey())
                        .add("lane", p.partition().getLane()).add("pending", p.partition().getPendingCount()).add("inFlight", p.inFlight())
                        .add("waiting", p.waiting() == null ? jakarta.json.JsonValue.NULL : jakarta.json.Json.createValue(p.waiting()))
                        .build().toString()).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).type(MediaType.APPLICATION_JSON)
                        .entity(jakarta.json.Json.createObjectBuilder().add("error", "No partition " + id).build().toString()).build());
    }

    /** As the policy's, for one partition (its id as in the console's links). */
    @GET
    @Path("partitions/{id: [0-9]+}/history")
    public Response partitionHistory(@PathParam("id") long id, @QueryParam("minutes") @DefaultValue("120") int minutes) {
        return history(() -> monitoring.partitionHistory(id, minutes), minutes);
    }

    /** Denial episodes within the last {@code seconds} (default an hour), newest first, as the Denials view shows them. */
    @GET
    @Path("denials")
    public List<DenialRow> denials(@QueryParam("seconds") @DefaultValue("3600") long seconds, @QueryParam("policy") String policy,
                                   @QueryParam("reason") String reason, @QueryParam("partition") String partition) {
        return monitoring.denials(seconds, policy, reason, partition);
    }

    private static Response history(java.util.function.Supplier<List<HistoryPoint>> read, int minutes) {
        if (minutes < 1 || minutes > Monitoring.HISTORY_MAX_MINUTES) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                    .entity(jakarta.json.Json.createObjectBuilder().add("error", "minutes is 1 to " + Monitoring.HISTORY_MAX_MINUTES)
                            .build().toString()).build();
        }
        return Response.ok(read.get()).build();
    }
}
