package io.dispatchpolicy.console;

import java.time.Instant;

/**
 * An operator's override of one value for one partition (ADR 0025), as the console's form and the API send it.
 *
 * @param kind  {@code gate}: a parameter of one of the policy's gates, for the partition's key; {@code lane}:
 *              the weight or minimum of the partition's lane (every partition of that lane shares it)
 * @param scope the gate's id, or the lane's name
 * @param param the gate parameter ({@code max}, {@code rate}, {@code per}, {@code min}, …), or {@code weight} /
 *              {@code min} for a lane
 * @param value the value while the override lasts
 * @param until when it ends by itself; null: until an operator clears it
 */
public record OverrideChange(String kind, String scope, String param, Double value, Instant until) implements java.io.Serializable {

    public static final String GATE = "gate";

    public OverrideChange {
        // kept to the millisecond, as stored: what the audit log says is what is in force
        until = until == null ? null : until.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    public static final String LANE = "lane";
}
