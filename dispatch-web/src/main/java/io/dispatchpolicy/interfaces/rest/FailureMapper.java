package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.console.RequestRefused;
import io.dispatchpolicy.console.audit.ActionRefused;
import io.dispatchpolicy.interfaces.engine.EngineUnavailableException;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.logging.Logger;

/**
 * Any failure of the API answers as a {@link Problem} (problem+json), never a stack trace: the engine's
 * refusals keep their message and, where they name one, the field at fault.
 */
@Provider
public class FailureMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(FailureMapper.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        if (failure instanceof Problem problem) {
            return problem.getResponse();
        }
        if (failure instanceof WebApplicationException web) {
            // JAX-RS's own: an unknown path (404), a method not served (405), an unreadable body (400)…
            Response original = web.getResponse();
            Response.StatusType status = original.getStatusInfo();
            String detail = switch (status.getStatusCode()) {
                case 400 -> "The request's body cannot be read: send a JSON object (Content-Type: application/json)";
                case 404 -> "There is no such resource: the API's paths are listed at /openapi";
                case 405 -> "This resource does not take that method" + (original.getAllowedMethods().isEmpty() ? ""
                        : ": it takes " + new java.util.TreeSet<>(original.getAllowedMethods()));
                case 406 -> "The API answers JSON only";
                case 415 -> "Send JSON (Content-Type: application/json)";
                default -> status.getReasonPhrase();
            };
            Response.ResponseBuilder problem = Response.fromResponse(Problem.response(status, null, detail, null));
            original.getStringHeaders().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("Content-Type") && !name.equalsIgnoreCase("Content-Length")) {
                    values.forEach(v -> problem.header(name, v));
                }
            });
            return problem.build();
        }
        if (failure instanceof jakarta.json.JsonException unreadable) {
            // a body that is not JSON, or cut short: the provider's parser says where
            return Problem.response(Response.Status.BAD_REQUEST, null, "The request's body cannot be read as JSON: " + unreadable.getMessage(), null);
        }
        if (failure instanceof EngineUnavailableException unavailable) {
            // the engine's deployment is absent, starting, stopping or failed: say so at once (ADR 0026)
            Response r = Problem.response(Response.Status.SERVICE_UNAVAILABLE, null, "The engine is unavailable: " + unavailable.getMessage(),
                    Json.createObjectBuilder().add("since", unavailable.since().toString()));
            return Response.fromResponse(r).header("Retry-After", "1").build();
        }
        if (failure instanceof ActionRefused refused) {
            // the user lacks the role the action needs: nothing changed, and the audit log says so
            return Problem.response(Response.Status.FORBIDDEN, null, refused.getMessage(), null);
        }
        if (failure instanceof RequestRefused refused) {
            // the caller's request, not the server, is at fault: say what to change (or what is missing, or why not now)
            Response.Status status = switch (refused.why()) {
                case INPUT -> Response.Status.BAD_REQUEST;
                case MISSING -> Response.Status.NOT_FOUND;
                case STATE -> Response.Status.CONFLICT;
            };
            return Problem.response(status, refused.field(), refused.getMessage(), null);
        }
        if (failure instanceof ScheduleDeclarationException bad) {
            return Problem.response(Response.Status.BAD_REQUEST, bad.field(), bad.getMessage(), null);
        }
        if (failure instanceof ScheduleActionRefused refused) {
            // well-formed, but not possible now (a declared schedule edited here, a name taken)
            return Problem.response(Response.Status.CONFLICT, null, refused.getMessage(), null);
        }
        if (failure instanceof SubmissionRejectedException || failure instanceof IllegalArgumentException) {
            return Problem.response(Response.Status.BAD_REQUEST, null, String.valueOf(failure.getMessage()), null);
        }
        LOG.warning(() -> "JSON endpoint failed: " + failure);
        return Problem.response(Response.Status.INTERNAL_SERVER_ERROR, null, "The request could not be answered; see the server log", null);
    }
}
