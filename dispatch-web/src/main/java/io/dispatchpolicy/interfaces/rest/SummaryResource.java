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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The dashboard's figures as JSON: {@code curl -u user:password http://host:8080/dispatch/api/summary}; the policies,
 * the denials. A policy's and a partition's own reads and actions are {@link PoliciesResource}'s and
 * {@link PartitionActionsResource}'s (Jakarta REST picks a class by its path first).
 */
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

    /**
     * Denial episodes within the last {@code seconds} (default an hour), newest first, as the Denials view shows them; with
     * {@code now=true}, the partitions denied now instead — the summary's {@code deniedPartitions}, row for row.
     */
    @GET
    @Path("denials")
    public List<DenialRow> denials(@QueryParam("seconds") @DefaultValue("3600") long seconds, @QueryParam("policy") String policy,
                                   @QueryParam("reason") String reason, @QueryParam("partition") String partition,
                                   @QueryParam("now") @DefaultValue("false") boolean now) {
        return now ? monitoring.deniedNow(policy, reason, partition) : monitoring.denials(seconds, policy, reason, partition);
    }

    /** A history of at most {@link Monitoring#HISTORY_MAX_MINUTES} minutes, as a policy's and a partition's page chart it. */
    static Response history(java.util.function.Supplier<List<HistoryPoint>> read, int minutes) {
        if (minutes < 1 || minutes > Monitoring.HISTORY_MAX_MINUTES) {
            throw Problem.badField("minutes", "minutes is 1 to " + Monitoring.HISTORY_MAX_MINUTES);
        }
        return Response.ok(read.get()).build();
    }
}
