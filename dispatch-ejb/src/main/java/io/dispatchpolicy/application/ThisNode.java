package io.dispatchpolicy.application;

import io.dispatchpolicy.config.DispatchSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.UUID;

/**
 * This server incarnation: a fresh id every time the application starts, and the stable node name.
 * In-flight rows are owned by the id, so a restarted server can tell its earlier life's rows apart.
 */
@ApplicationScoped
public class ThisNode {

    @Inject
    DispatchSettings settings;

    private UUID id;
    private String name;

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
}
