package io.dispatchpolicy.application;

import io.dispatchpolicy.config.DispatchSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * This server incarnation: a fresh id every time the application starts, and the stable node name.
 * In-flight rows are owned by the id, so a restarted server can tell its earlier life's rows apart.
 * It also remembers when its last tick succeeded, which the console shows even while the database
 * cannot answer.
 */
@ApplicationScoped
public class ThisNode {

    @Inject
    DispatchSettings settings;

    private UUID id;
    private String name;
    private volatile Instant lastTickAt;

    @PostConstruct
    void init() {
        id = UUID.randomUUID();
        name = settings.nodeName();
    }

    public UUID id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** Records that an iteration of this node's tick (a claim and its admissions) just succeeded. */
    public void tickSucceeded() {
        lastTickAt = Instant.now();
    }

    /** When this node's last successful tick iteration ended; empty before the first. */
    public Optional<Instant> lastTickAt() {
        return Optional.ofNullable(lastTickAt);
    }
}
