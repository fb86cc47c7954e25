package io.dispatchpolicy.faults.check;

import java.time.Instant;

/** A partition with staged jobs left: how many, how many parked, and why the tick last passed it by. */
public record StagedPartition(String partitionKey, long staged, long parked, long inflight, String lastDenyReason,
                             Instant lastDeniedAt, Instant nextEligibleAt) {

    @Override
    public String toString() {
        return partitionKey + ": " + staged + " staged (" + parked + " parked), " + inflight + " in flight, last denial "
                + lastDenyReason + " at " + lastDeniedAt + ", next eligible " + nextEligibleAt;
    }
}
