package io.dispatchpolicy.notify;

import java.util.Arrays;
import java.util.Optional;

/** What a webhook can be told of; {@link #wire()} is the name in settings, headers and bodies. */
public enum EventType {
    /** A governed job's last retry failed: it waits, dead, for an operator. */
    JOB_DEAD("job.dead"),
    /** A staged job was not admitted by its deadline (ADR 0036). */
    JOB_EXPIRED("job.expired"),
    /** A partition's key was paused, by one of its jobs (ADR 0033) or by an operator. */
    PARTITION_PAUSED("partition.paused"),
    /** A bulk action ended: done, cancelled or failed (ADR 0039). */
    BULK_ACTION_ENDED("bulk-action.ended");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<EventType> ofWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(name)).findFirst();
    }
}
