package io.dispatchpolicy.domain.model;

import java.time.Instant;

/**
 * A partition as the console browses it: one row of {@code dispatch.partitions}, read by
 * {@code PartitionBrowser}. The engine writes the table with native SQL under row locks; this is a
 * read-only snapshot (no persistence unit: see ADR 0008, the engine must not add one to a user's
 * deployment).
 */
public class Partition implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    private final long id;

    private final String policyName;

    private final String partitionKey;

    private final int pendingCount;

    private final int parkedCount;

    private final long totalAdmitted;

    private final double decayedAdmits;

    private final Instant decayedAdmitsAt;

    private final Instant lastCheckedAt;

    private final Instant lastAdmittedAt;

    private final Instant nextEligibleAt;

    private final Instant lastDeniedAt;

    private final String lastDenyReason;

    private final boolean paused;

    private final Instant createdAt;

    private final int scheduledCount;

    /** Its lane; {@code ""} outside lanes (for a policy with lanes: the key's gate row). */
    private final String lane;

    public Partition(long id, String policyName, String partitionKey, int pendingCount, int parkedCount,
            long totalAdmitted, double decayedAdmits, Instant decayedAdmitsAt, Instant lastCheckedAt,
            Instant lastAdmittedAt, Instant nextEligibleAt, Instant lastDeniedAt, String lastDenyReason, boolean paused,
            Instant createdAt, int scheduledCount, String lane) {
        this.id = id;
        this.policyName = policyName;
        this.partitionKey = partitionKey;
        this.pendingCount = pendingCount;
        this.parkedCount = parkedCount;
        this.totalAdmitted = totalAdmitted;
        this.decayedAdmits = decayedAdmits;
        this.decayedAdmitsAt = decayedAdmitsAt;
        this.lastCheckedAt = lastCheckedAt;
        this.lastAdmittedAt = lastAdmittedAt;
        this.nextEligibleAt = nextEligibleAt;
        this.lane = lane;
        this.lastDeniedAt = lastDeniedAt;
        this.lastDenyReason = lastDenyReason;
        this.paused = paused;
        this.createdAt = createdAt;
        this.scheduledCount = scheduledCount;
    }

    public long getId() {
        return id;
    }

    public String getPolicyName() {
        return policyName;
    }

    public String getPartitionKey() {
        return partitionKey;
    }

    public int getPendingCount() {
        return pendingCount;
    }

    public int getParkedCount() {
        return parkedCount;
    }

    public long getTotalAdmitted() {
        return totalAdmitted;
    }

    public double getDecayedAdmits() {
        return decayedAdmits;
    }

    public Instant getDecayedAdmitsAt() {
        return decayedAdmitsAt;
    }

    public Instant getLastCheckedAt() {
        return lastCheckedAt;
    }

    public Instant getLastAdmittedAt() {
        return lastAdmittedAt;
    }

    public Instant getNextEligibleAt() {
        return nextEligibleAt;
    }

    public Instant getLastDeniedAt() {
        return lastDeniedAt;
    }

    public String getLastDenyReason() {
        return lastDenyReason;
    }

    public boolean isPaused() {
        return paused;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    /** Jobs submitted for later whose time has not come: not waiting yet, not counted in pending. */
    public int getScheduledCount() {
        return scheduledCount;
    }

    /** True while the partition waits for a gate (or an operator) and will not be claimed before {@link #getNextEligibleAt()}. */
    public boolean isWaiting(Instant now) {
        return paused || (nextEligibleAt != null && nextEligibleAt.isAfter(now));
    }

    public String getLane() {
        return lane;
    }
}
