package io.dispatchpolicy.console;

import jakarta.ejb.ApplicationException;

/** An override that cannot be set as asked; {@link #field()} names the form's field at fault. Nothing changed. */
@ApplicationException(rollback = true)
public class OverrideRefused extends RequestRefused {

    private static final long serialVersionUID = 2L;

    /** @param field {@code kind}, {@code scope}, {@code param}, {@code value}, {@code until} or {@code reason} */
    public OverrideRefused(String field, String message) {
        super(Why.INPUT, field, message);
    }

    /** The partition named does not exist (any more). */
    public static OverrideRefused noPartition(long partitionId) {
        return new OverrideRefused(Why.MISSING, "Partition " + partitionId + " does not exist (any more)");
    }

    private OverrideRefused(Why why, String message) {
        super(why, "partition", message);
    }
}
