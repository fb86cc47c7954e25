package io.dispatchpolicy.api;

import java.time.Instant;

/**
 * A group's progress (ADR 0052): of its {@code total} members, how many are staged (waiting, scheduled, retrying),
 * running, and ended — completed, failed for good (of which {@code dead} are dead jobs now), stopped by an
 * operator, discarded before they ran. {@code endedAt} is set once every member has ended; {@code callbacks} says
 * what became of its callbacks ("all-succeeded: staged 1000000004711", "all-ended: waiting" …).
 *
 * @param id 0 with every count 0 when no group has that id (or it was removed after its retention)
 */
public record GroupStatus(long id, String name, int total, int staged, int running, int completed, int failed, int dead,
                          int stopped, int discarded, Instant createdAt, Instant cancelledAt, Instant endedAt,
                          java.util.List<String> callbacks) implements java.io.Serializable {

    public GroupStatus {
        callbacks = callbacks == null ? java.util.List.of() : java.util.List.copyOf(callbacks);
    }

    /** Members that have ended for good. */
    public int ended() {
        return completed + failed + stopped + discarded;
    }

    public boolean exists() {
        return id != 0;
    }
}
