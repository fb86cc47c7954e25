package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.bulk.BulkActionControl;
import io.dispatchpolicy.console.bulk.BulkActionView;
import io.dispatchpolicy.console.bulk.BulkKind;
import io.dispatchpolicy.console.bulk.JobFilter;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
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
import jakarta.ws.rs.core.UriInfo;

import java.util.Set;

/**
 * Bulk actions by filter (ADR 0039) for scripts: preview how many jobs match, start one (202: it runs in batches,
 * follow it at its location), read its progress, cancel it. Body {@code {"kind": "discard" | "expire" | "stop" |
 * "restart" | "retry", "filter": {"policy", "partition", "job", "from", "to", "parameter": "name=value"}}}.
 * Starting and cancelling need dispatch-operator; each is one audit row.
 */
@Path("/bulk-actions")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class BulkActionsResource {

    private static final Set<String> FIELDS = Set.of("kind", "filter");
    private static final Set<String> FILTER = Set.of("policy", "partition", "job", "from", "to", "parameter");

    @Inject
    @Engine
    BulkActionControl control;

    @Context
    SecurityContext security;

    @Context
    UriInfo uri;

    /** How many jobs the action would act on now: {@code {"kind", "matched"}}; nothing is done. */
    @POST
    @Path("preview")
    @Consumes(MediaType.APPLICATION_JSON)
    public String preview(JsonObject json) {
        JsonBody body = JsonBody.of(json, FIELDS);
        BulkKind kind = kind(body);
        long matched = refusedAsFilter(() -> control.preview(kind, filter(body)));
        return Json.createObjectBuilder().add("kind", kind.name()).add("matched", matched).build().toString();
    }

    /** Starts the action on the jobs that match now: 202 with its location and its state. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response start(JsonObject json) {
        JsonBody body = JsonBody.of(json, FIELDS);
        BulkKind kind = kind(body);
        JobFilter filter = filter(body);
        BulkActionView view = refusedAsFilter(() -> control.start(kind, filter, ApiActor.of(security)));
        return Response.accepted(write(view).build().toString())
                .location(uri.getBaseUriBuilder().path("bulk-actions").path(Long.toString(view.id())).build()).build();
    }

    /** The newest bulk actions first ({@code limit} 1 to 200, default 20). */
    @GET
    public String recent(@QueryParam("limit") @DefaultValue("20") int limit) {
        if (limit < 1 || limit > 200) {
            throw Problem.badField("limit", "limit is 1 to 200, was " + limit);
        }
        JsonArrayBuilder all = Json.createArrayBuilder();
        control.recent(limit).forEach(v -> all.add(write(v)));
        return Json.createObjectBuilder().add("bulkActions", all).build().toString();
    }

    @GET
    @Path("{id: [0-9]+}")
    public String read(@PathParam("id") long id) {
        return write(existing(id)).build().toString();
    }

    /** Asks a running action to stop after its current batch; 409 when it is no longer running. */
    @POST
    @Path("{id: [0-9]+}/cancel")
    public String cancel(@PathParam("id") long id) {
        existing(id);
        return write(control.cancel(id, ApiActor.of(security))).build().toString();
    }

    /** A filter's refusal names its criterion as the body does: {@code filter.policy}. */
    private static <T> T refusedAsFilter(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (io.dispatchpolicy.console.bulk.BulkActionRefused refused) {
            if (refused.field() == null || refused.why() != io.dispatchpolicy.console.RequestRefused.Why.INPUT) {
                throw refused;
            }
            throw Problem.badField("filter." + refused.field(), refused.getMessage());
        }
    }

    private BulkActionView existing(long id) {
        return control.find(id).orElseThrow(() -> Problem.notFound("No bulk action " + id));
    }

    private static BulkKind kind(JsonBody body) {
        String text = body.text("kind");
        if (text == null) {
            throw Problem.badField("kind", "kind is required: one of discard, expire, stop, restart, retry");
        }
        try {
            return BulkKind.parse(text);
        } catch (IllegalArgumentException e) {
            throw Problem.badField("kind", e.getMessage());
        }
    }

    private static JobFilter filter(JsonBody body) {
        JsonBody f = body.object("filter", FILTER);
        if (f == null) {
            throw Problem.badField("filter", "filter is required: at least one of " + new java.util.TreeSet<>(FILTER));
        }
        return new JobFilter(f.text("policy"), f.text("partition"), f.text("job"), f.instant("from"), f.instant("to"), f.text("parameter"));
    }

    static JsonObjectBuilder write(BulkActionView v) {
        JsonObjectBuilder filter = Json.createObjectBuilder();
        v.filter().forEach(filter::add);
        JsonObjectBuilder o = Json.createObjectBuilder().add("id", v.id()).add("kind", v.kind().name()).add("filter", filter)
                .add("requestedBy", v.requestedBy()).add("requestedAt", v.requestedAt().toString()).add("state", v.state())
                .add("matched", v.matched()).add("done", v.done()).add("skipped", v.skipped()).add("failed", v.failed())
                .add("percent", v.percent()).add("updatedAt", v.updatedAt().toString());
        if (v.lastError() != null) {
            o.add("lastError", v.lastError());
        }
        if (v.cancelRequestedBy() != null) {
            o.add("cancelRequestedBy", v.cancelRequestedBy());
        }
        if (v.finishedAt() != null) {
            o.add("finishedAt", v.finishedAt().toString());
        }
        return o;
    }
}
