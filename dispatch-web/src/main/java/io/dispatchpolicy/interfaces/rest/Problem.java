package io.dispatchpolicy.interfaces.rest;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/**
 * Every error the API answers, as an RFC 9457 problem ({@code application/problem+json}): {@code type}
 * {@code about:blank} (the status says what kind), {@code title} the status's phrase, {@code status}, {@code detail}
 * what to change, and {@code field} — the request's field at fault — when one is (ADR 0038). Thrown, it is
 * the response: a resource method stops at the first bad field and nothing has changed.
 */
public final class Problem extends WebApplicationException {

    private static final long serialVersionUID = 1L;

    public static final String MEDIA_TYPE = "application/problem+json";

    private Problem(Response response) {
        super(response);
    }

    /** A problem with the request's {@code field} (null: the request as a whole). */
    public static Problem of(Response.StatusType status, String field, String detail) {
        return new Problem(response(status, field, detail, null));
    }

    /** 400: the request's {@code field} cannot be used as it is. */
    public static Problem badField(String field, String detail) {
        return of(Response.Status.BAD_REQUEST, field, detail);
    }

    /** 404: what the path names does not exist (any more). */
    public static Problem notFound(String detail) {
        return of(Response.Status.NOT_FOUND, null, detail);
    }

    static Response response(Response.StatusType status, String field, String detail, JsonObjectBuilder extra) {
        JsonObjectBuilder body = extra == null ? Json.createObjectBuilder() : extra;
        body.add("type", "about:blank").add("title", status.getReasonPhrase()).add("status", status.getStatusCode())
                .add("detail", detail == null ? status.getReasonPhrase() : detail);
        if (field != null) {
            body.add("field", field);
        }
        return Response.status(status).type(MEDIA_TYPE).entity(body.build().toString()).build();
    }
}
