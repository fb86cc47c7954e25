package io.dispatchpolicy.node;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.domain.shard.ShardScope;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * This server incarnation: a fresh id every time the application starts, and the stable node name.
 * In-flight rows are owned by the id, so a restarted server can tell its earlier life's rows apart.
 * It also remembers when its last tick succeeded, which the console shows even while the database
 * cannot answer, and which shards its tick admits.
 */
@ApplicationScoped
public class ThisNode {

    private static final Logger LOG = Logger.getLogger(ThisNode.class.getName());

    @Inject
    DispatchSettings settings;

    private UUID id;
    private String name;
    private volatile Instant lastTickAt;
    private volatile ShardScope shards;
    /** The message of the bad {@code dispatch.shards} value last reported, while it stays. */
    private volatile String badShards;

    @PostConstruct
    void init() {
        id = UUID.randomUUID();
        name = settings.nodeName();
        shards = settings.shards(); // a bad value at boot fails the deployment (DispatchSettings.validate)
    }

    /**
     * The shards this node's tick admits now ({@code dispatch.shards}, read live). A bad value written at
     * runtime is reported once and the node keeps admitting what it did: an operator's typo must not stop
     * a node, nor make it admit everything.
     */
    public ShardScope shards() {
        ShardScope now;
        try {
            now = settings.shards();
        } catch (InvalidSettingException e) {
            if (!e.getMessage().equals(badShards)) {
                badShards = e.getMessage();
                LOG.warning(() -> e.getMessage() + "; node '" + name + "' keeps admitting " + shards);
            }
            return shards;
        }
        badShards = null;
        if (!now.equals(shards)) {
            ShardScope before = shards;
            shards = now;
            LOG.info(() -> "Node '" + name + "' now admits " + now + " (was " + before + ")");
        }
        return now;
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
