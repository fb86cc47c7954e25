package io.dispatchpolicy.console.monitoring;

import java.time.Instant;
import java.util.List;

/**
 * What this node knows without asking the database, so the console can show it during an outage.
 *
 * @param lastTickAt               when this node's last successful tick ended; null before the first
 * @param secondsSinceLastTick     seconds since then; null before the first
 * @param databaseUnreachableSince since when this node finds its database unreachable; null while reachable
 * @param heldPolicies             policies held by an invalid setting
 * @param admits                   which shards this node admits: "every shard" or "shards [a, b]" (ADR 0014)
 */
public record NodeStatus(String nodeName, Instant lastTickAt, Long secondsSinceLastTick,
                         Instant databaseUnreachableSince, List<HeldPolicy> heldPolicies, String admits) implements java.io.Serializable {

    public boolean databaseReachable() {
        return databaseUnreachableSince == null;
    }
}
