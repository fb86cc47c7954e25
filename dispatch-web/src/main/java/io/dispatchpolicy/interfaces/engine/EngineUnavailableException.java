package io.dispatchpolicy.interfaces.engine;

import java.time.Instant;

/**
 * The engine cannot answer the console now: its deployment is absent, starting, stopping or failed. The
 * JSON API answers 503 with the reason, the pages a banner (ADR 0026); nothing was done.
 */
public class EngineUnavailableException extends RuntimeException {

    private final Instant since;

    public EngineUnavailableException(String reason, Instant since) {
        super(reason);
        this.since = since;
    }

    /** Since when the console has found the engine unavailable. */
    public Instant since() {
        return since;
    }
}
