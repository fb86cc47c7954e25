package io.dispatchpolicy.console;

import jakarta.ejb.ApplicationException;

/**
 * An operator's request the engine refuses, nothing changed: {@link #why()} says whether its input is wrong, what it
 * names does not exist, or the engine's state refuses it now; {@link #field()} names the request's field at fault
 * when one is. The console shows it beside that field, the API answers 400, 404 or 409 naming it (ADR 0038).
 */
@ApplicationException(rollback = true)
public class RequestRefused extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Why a request is refused. */
    public enum Why {
        /** its input cannot be used as it is */
        INPUT,
        /** what it names does not exist (any more) */
        MISSING,
        /** well-formed, but the engine's state refuses it now (the same request may succeed later) */
        STATE
    }

    private final Why why;
    private final String field;

    public RequestRefused(Why why, String field, String message) {
        super(message);
        this.why = why;
        this.field = field;
    }

    public Why why() {
        return why;
    }

    /** The request's field at fault, or null when the request as a whole is. */
    public String field() {
        return field;
    }
}
