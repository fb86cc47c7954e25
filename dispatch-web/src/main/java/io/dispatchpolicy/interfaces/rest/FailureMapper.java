package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.interfaces.engine.EngineUnavailableException;
import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.logging.Logger;

/** Any failure of the JSON endpoint answers as JSON with a message, never a stack trace. */
@Provider
public class FailureMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(FailureMapper.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        if (failure instanceof WebApplicationException web) {
            return web.getResponse();
        }
        if (failure instanceof EngineUnavailableException unavailable) {
            // the engine's deployment is absent, starting, stopping or failed: say so at once (ADR 0026)
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON)
                    .header("Retry-After", "1")
                    .entity(Json.createObjectBuilder().add("error", "The engine is unavailable")
                            .add("reason", unavailable.getMessage()).add("since", unavailable.since().toString())
                            .build().toString()).build();
        }
        if (failure instanceof io.dispatchpolicy.console.audit.ActionRefused refused) {
            // the user lacks the role the action needs: nothing changed, and the audit log says so
            return Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", refused.getMessage()).build().toString()).build();
        }
        if (failure instanceof IllegalArgumentException bad) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", String.valueOf(bad.getMessage())).build().toString()).build();
        }
        if (failure instanceof JobRequestRefused refused) {
            // the caller's request, not the server, is at fault: say what to change
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", refused.getMessage()).build().toString()).build();
        }
        LOG.warning(() -> "JSON endpoint failed: " + failure);
        return Response.serverError().type(MediaType.APPLICATION_JSON)
                .entity(Json.createObjectBuilder().add("error", "The request could not be answered; see the server log")
                        .build().toString())
                .build();
    }
}
