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

    /** Its lane; {@code ""} outside lanes, and for a key of a policy with lanes (its lanes are in {@link #lanes}). */
    private final String lane;

    /** For a key of a policy with lanes: each lane's row, by lane name; else empty. */
    private final java.util.List<LaneCount> lanes;

    /**
     * One lane of a key: its own partition row ({@code id}, for its page), what waits and what was admitted in it.
     */
    public record LaneCount(long id, String lane, int pendingCount, int parkedCount, long totalAdmitted)
            implements java.io.Serializable {
    }

    public Partition(long id, String policyName, String partitionKey, int pendingCount, int parkedCount,
            long totalAdmitted, double decayedAdmits, Instant decayedAdmitsAt, Instant lastCheckedAt,
            Instant lastAdmittedAt, Instant nextEligibleAt, Instant lastDeniedAt, String lastDenyReason, boolean paused,
            Instant createdAt, int scheduledCount, String lane) {
        this(id, policyName, partitionKey, pendingCount, parkedCount, totalAdmitted, decayedAdmits, decayedAdmitsAt,
                lastCheckedAt, lastAdmittedAt, nextEligibleAt, lastDeniedAt, lastDenyReason, paused, createdAt, scheduledCount,
                lane, java.util.List.of());
    }

    /** A key with its lanes: the figures are the sums (and latest, earliest) over its rows, {@code lanes} each row's own. */
    public Partition(long id, String policyName, String partitionKey, int pendingCount, int parkedCount,
            long totalAdmitted, double decayedAdmits, Instant decayedAdmitsAt, Instant lastCheckedAt,
            Instant lastAdmittedAt, Instant nextEligibleAt, Instant lastDeniedAt, String lastDenyReason, boolean paused,
            Instant createdAt, int scheduledCount, String lane, java.util.List<LaneCount> lanes) {
        this.lanes = java.util.List.copyOf(lanes);
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

    /** Each lane of this key with its figures (a policy with lanes); empty otherwise and for one lane's own row. */
    public java.util.List<LaneCount> getLanes() {
        return lanes;
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
