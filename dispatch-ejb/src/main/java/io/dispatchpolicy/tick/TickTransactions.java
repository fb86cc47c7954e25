package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.domain.shard.ShardScope;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.partition.PartitionRepository;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The tick's own statements, each in a short transaction of its own: the due-jobs step (promote, find
 * the bypassing restarts), the claims, and the deny state written back. What happens to one claimed
 * partition is the admission's ({@code admission.AdmissionService}). A node that admits named shards
 * claims each of them on its own walk (ADR 0014).
 */
// A singleton with bean-managed concurrency (it holds no state): the tick loop names it in @DependsOn, so
// it stops only after the loop has.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class TickTransactions {

    @Inject
    ThisNode node;

    @Inject
    Claims claims;

    @Inject
    DueJobs dueJobs;

    @Inject
    PartitionRepository partitions;

    @Inject
    io.dispatchpolicy.staging.DiscardedJobs discarded;

    @Inject
    io.dispatchpolicy.observe.EngineMetrics metrics;

    @Inject
    io.dispatchpolicy.schedule.ScheduleChaining chaining;

    /**
     * The most jobs one iteration expires. Small, so a burst of expiries (a million deadlines passing together)
     * adds a bounded cost to each iteration rather than a long one; the admission expires what it takes of a
     * claimed partition anyway, so only partitions nobody admits from wait on this step (ADR 0036).
     */
    static final int EXPIRE_BATCH = 500;

    /** How often this node looks for jobs past their deadline: a job expires within this and an iteration of it. */
    static final long EXPIRE_EVERY_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(250);

    private volatile long lastExpiry = System.nanoTime() - EXPIRE_EVERY_NANOS;

    /**
     * Expires up to {@code limit} staged jobs past their deadline (database clock, ADR 0036): recorded EXPIRED,
     * out of their partitions. @return how many
     */
    int expireDue(int limit) {
        io.dispatchpolicy.staging.DiscardedJobs.Expired expired = discarded.expireDue(limit);
        expired.byPolicy().forEach((policy, n) -> metrics.discardedOnCommit(policy, "expired", n));
        // a schedule's expired occurrence: its next one, in the partition this transaction holds
        chaining.expiredByTick(expired.occurrences());
        return expired.byPolicy().values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Moves up to {@code limit} scheduled jobs whose time has come (database clock) into their partitions' waiting sets; @return how many. */
    public int promoteDue(int limit) {
        // first, in the same transaction: a delayed job past its deadline is never promoted (ADR 0036); at most every
        // EXPIRE_EVERY, so an iteration mostly pays nothing for it (the admission expires what it takes anyway)
        long now = System.nanoTime();
        if (now - lastExpiry >= EXPIRE_EVERY_NANOS) {
            lastExpiry = now;
            expireDue(EXPIRE_BATCH);
        }
        return dueJobs.promoteDue(limit);
    }

    /** Up to {@code limit} due restarts that bypass the gates, of this node's shards (read only; the admission admits each). */
    public List<DueBypass> bypassedDue(int limit) {
        ShardScope scope = node.shards();
        return dueJobs.bypassedDue(limit, scope.everyShard() ? null : scope.claimed());
    }

    /** Claims up to {@code limit} partitions outside lanes with pending work, of this node's shards. */
    public List<ClaimedPartition> claim(int limit) {
        return perShard(limit, claims::claim, (shard, share) -> claims.claimShard(shard, share));
    }

    /** Claims up to {@code limit} partitions of one lane of a policy, of this node's shards. */
    public List<ClaimedPartition> claimLane(String policyName, String lane, int limit) {
        return perShard(limit, l -> claims.claimLane(policyName, lane, l),
                (shard, share) -> claims.claimLaneShard(policyName, lane, shard, share));
    }

    private List<ClaimedPartition> perShard(int limit, IntFunction<List<ClaimedPartition>> everyShard, ShardClaim oneShard) {
        ShardScope scope = node.shards();
        if (scope.everyShard()) {
            return everyShard.apply(limit);
        }
        List<ClaimedPartition> claimed = new ArrayList<>();
        for (String shard : scope.claimed()) {
            claimed.addAll(oneShard.claim(shard, scope.share(limit)));
        }
        return claimed;
    }

    @FunctionalInterface
    private interface ShardClaim {
        List<ClaimedPartition> claim(String shard, int limit);
    }

    /** Writes the deny state of an iteration's denied partitions, in one statement. */
    public void deny(List<Denial> denials) {
        partitions.deny(denials);
    }

    /** Flags partitions of a paused policy that were created while it was being paused. */
    public void markPaused(List<Long> partitionIds) {
        partitions.markPaused(partitionIds);
    }
}
