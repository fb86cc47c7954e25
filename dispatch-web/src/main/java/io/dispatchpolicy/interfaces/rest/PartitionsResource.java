package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.OverrideChange;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.OverrideView;
import io.dispatchpolicy.console.monitoring.PartitionDetail;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.interfaces.web.Formats;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import java.time.Instant;

/**
 * A partition's overrides for scripts (the guide, "Overrides"; ADR 0025): read them, set one, clear one. Setting
 * and clearing need the operator role and are audited like the console's actions.
 * <pre>
 * curl -u operator:pw -H 'Content-Type: application/json' -X POST \
 *      -d '{"kind":"gate","scope":"concurrency","param":"max","value":5,"until":"+2h"}' \
 *      http://host:8080/dispatch/api/partitions/42/overrides
 * curl -u operator:pw -X DELETE http://host:8080/dispatch/api/partitions/42/overrides/gate/concurrency/max
 * </pre>
 * A bad value answers 400, a problem (problem+json) naming the {@code field} at fault; nothing changes.
 */
@Path("/partitions/{id: [0-9]+}/overrides")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PartitionsResource {

    @Inject
    @Engine
    PartitionControl control;

    @Inject
    @Engine
    Monitoring monitoring;

    @Context
    SecurityContext security;

    @GET
    public Response overrides(@PathParam("id") long id) {
        PartitionDetail detail = monitoring.partition(id).orElse(null);
        if (detail == null) {
            return error(Response.Status.NOT_FOUND, "partition", "Partition " + id + " does not exist (any more)");
        }
        var list = Json.createArrayBuilder();
        for (OverrideView o : detail.overrides()) {
            var entry = Json.createObjectBuilder().add("kind", o.kind()).add("scope", o.scope()).add("param", o.param())
                    .add("value", o.value()).add("policyValue", o.policyValue())
                    .add("by", o.by() == null ? "" : o.by()).add("at", o.at().toString());
            if (o.until() == null) {
                entry.addNull("until");
            } else {
                entry.add("until", o.until().toString());
            }
            list.add(entry);
        }
        return Response.ok(Json.createObjectBuilder().add("partition", id).add("overrides", list).build().toString()).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response set(@PathParam("id") long id, JsonObject body) {
        if (body == null) {
            return error(Response.Status.BAD_REQUEST, "kind", "Send a JSON object: kind, scope, param, value, until");
        }
        Double value;
        JsonValue v = body.get("value");
        if (v instanceof JsonNumber n) {
            value = n.doubleValue();
        } else if (v instanceof JsonString s) {
            try {
                value = Double.valueOf(s.getString().strip());
            } catch (NumberFormatException e) {
                return error(Response.Status.BAD_REQUEST, "value", "'" + s.getString() + "' is not a number");
            }
        } else {
            return error(Response.Status.BAD_REQUEST, "value", "value is required: a number");
        }
        Instant until;
        try {
            until = Formats.parseUntil(text(body, "until"), Instant.now());
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, "until", e.getMessage());
        }
        // a refusal (OverrideRefused) is the FailureMapper's problem, naming its field
        String said = control.setOverride(id, new OverrideChange(text(body, "kind"), text(body, "scope"),
                text(body, "param"), value, until), actor());
        return Response.ok(Json.createObjectBuilder().add("override", said).build().toString()).build();
    }

    @DELETE
    @Path("{kind}/{scope}/{param}")
    public Response clear(@PathParam("id") long id, @PathParam("kind") String kind, @PathParam("scope") String scope,
                          @PathParam("param") String param) {
        boolean was = control.clearOverride(id, kind, scope, param, actor());
        return Response.ok(Json.createObjectBuilder().add("cleared", was).build().toString()).build();
    }

    private Actor actor() {
        return ApiActor.of(security);
    }

    private static String text(JsonObject body, String name) {
        JsonValue v = body.get(name);
        return v instanceof JsonString s ? s.getString() : v == null || v.getValueType() == JsonValue.ValueType.NULL ? null : v.toString();
    }

    private static Response error(Response.Status status, String field, String message) {
        return Problem.response(status, field, message, null);
    }

}
