package io.dispatchpolicy.domain.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A partition as the console browses it: a read-only JPA mapping of {@code dispatch.partitions}.
 * The engine writes the table with native SQL under row locks; nothing persists this entity.
 */
@Entity
@Table(schema = "dispatch", name = "partitions")
public class Partition implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    @Id
    private long id;

    @Column(name = "policy_name", insertable = false, updatable = false)
    private String policyName;

    @Column(name = "partition_key", insertable = false, updatable = false)
    private String partitionKey;

    @Column(name = "pending_count", insertable = false, updatable = false)
    private int pendingCount;

    @Column(name = "parked_count", insertable = false, updatable = false)
    private int parkedCount;

    @Column(name = "total_admitted", insertable = false, updatable = false)
    private long totalAdmitted;

    @Column(name = "decayed_admits", insertable = false, updatable = false)
    private double decayedAdmits;

    @Column(name = "decayed_admits_at", insertable = false, updatable = false)
    private Instant decayedAdmitsAt;

    @Column(name = "last_checked_at", insertable = false, updatable = false)
    private Instant lastCheckedAt;

    @Column(name = "last_admitted_at", insertable = false, updatable = false)
    private Instant lastAdmittedAt;

    @Column(name = "next_eligible_at", insertable = false, updatable = false)
    private Instant nextEligibleAt;

    @Column(name = "last_denied_at", insertable = false, updatable = false)
    private Instant lastDeniedAt;

    @Column(name = "last_deny_reason", insertable = false, updatable = false)
    private String lastDenyReason;

    @Column(name = "paused", insertable = false, updatable = false)
    private boolean paused;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected Partition() {
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

    /** True while the partition waits for a gate (or an operator) and will not be claimed before {@link #getNextEligibleAt()}. */
    public boolean isWaiting(Instant now) {
        return paused || (nextEligibleAt != null && nextEligibleAt.isAfter(now));
    }
}
