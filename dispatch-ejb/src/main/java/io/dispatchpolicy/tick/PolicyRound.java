package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.gate.DecayedAdmits;
import io.dispatchpolicy.domain.gate.TickBudget;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.policy.EffectivePolicy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The round of a policy's claimed partitions outside lanes (and of one lane's when nothing is scarce):
 * strictly by their highest waiting priority (ADR 0009), a higher priority taking what it can before a
 * lower one gets any; within one priority fairly — lowest decayed admits (or slot-seconds) first, sharing what is left
 * ({@link TickBudget}) — or, when nothing is scarce, in groups of small partitions admitted together
 * (ADR 0016).
 */
final class PolicyRound {

    private PolicyRound() {
    }

    /** Partitions of any priorities sharing {@code left}: each priority in turn, highest first. @return admitted */
    static int admit(EffectivePolicy policy, List<ClaimedPartition> claimed, OptionalInt left, String exhausted, long now,
                     Admitter admitter) {
        TreeMap<Integer, List<ClaimedPartition>> byPriority = new TreeMap<>(Comparator.reverseOrder());
        claimed.forEach(p -> byPriority.computeIfAbsent(p.topPriority(), k -> new ArrayList<>()).add(p));
        int admitted = 0;
        for (List<ClaimedPartition> tier : byPriority.values()) {
            int used = fairly(policy, ordered(policy, tier, now), left, exhausted, admitter);
            admitted += used;
            if (left.isPresent()) {
                left = OptionalInt.of(Math.max(0, left.getAsInt() - used));
            }
        }
        return admitted;
    }

    /** Claimed partitions in admission order: highest waiting priority first, then fairly (decayed admits). */
    static List<ClaimedPartition> ordered(EffectivePolicy policy, List<ClaimedPartition> claimed, long now) {
        List<ClaimedPartition> ordered = new ArrayList<>(claimed);
        Comparator<ClaimedPartition> byPriority = Comparator.comparingInt(ClaimedPartition::topPriority).reversed();
        boolean byUsage = policy.usageHalfLifeSeconds().isPresent();
        Comparator<ClaimedPartition> order = policy.fairnessHalfLife().map(halfLife -> {
            double seconds = halfLife.toMillis() / 1000.0;
            // fewest decayed admissions first, or fewest decayed slot-seconds for a policy fair by usage (ADR 0048)
            return byPriority.thenComparingDouble((ClaimedPartition p) -> byUsage ? p.usage().at(now, seconds)
                            : DecayedAdmits.at(p.decayedAdmits(), p.decayedAtMillis(), now, seconds))
                    .thenComparingLong(ClaimedPartition::previousCheckedAtMillis)
                    .thenComparingLong(ClaimedPartition::id);
        }).orElse(byPriority);
        ordered.sort(order);
        return ordered;
    }

    /**
     * One priority's partitions, in order, sharing {@code left}; those it does not reach are denied with
     * {@code exhausted} and keep their place. A partition that took its whole share but less than a batch
     * is topped up from what the others left. @return admitted
     */
    private static int fairly(EffectivePolicy policy, List<ClaimedPartition> ordered, OptionalInt left, String exhausted,
                              Admitter admitter) {
        int batch = policy.admissionBatchSize();
        TickBudget budget = new TickBudget(left, ordered.size());
        if (!budget.limited() && ordered.stream().allMatch(p -> p.lane().isEmpty())) {
            return inGroups(policy, ordered, admitter.shareOfRoom(ordered, batch), batch, admitter);
        }
        Map<Long, Integer> admittedBy = new HashMap<>();
        List<ClaimedPartition> filled = new ArrayList<>();
        // Fair by usage (ADR 0048), what is scarce goes in that order, the least used taking what it can: an equal
        // share each would give a tenant of long jobs as many of them as one of short jobs — the skew usage removes.
        // Usage grows as the admitted jobs run, so the order turns as soon as the lowest has caught up.
        boolean inOrder = policy.usageHalfLifeSeconds().isPresent();
        for (ClaimedPartition p : ordered) {
            if (budget.exhausted()) {
                admitter.keepPlace(p, exhausted);
                continue;
            }
            int share = inOrder ? budget.remaining() : budget.nextShare();
            int limit = Math.min(batch, share);
            int n = admitter.admitOne(p, policy, batch, share);
            budget.use(n);
            admittedBy.put(p.id(), n);
            if (budget.limited() && n >= limit && n < batch) { // a costly job may take more than its share
                filled.add(p);
            }
        }
        for (ClaimedPartition p : filled) {
            int extra = Math.min(budget.remaining(), batch - admittedBy.get(p.id()));
            if (extra <= 0) {
                break;
            }
            int n = admitter.admitOne(p, policy, extra, extra);
            budget.use(n);
            admittedBy.merge(p.id(), n, Integer::sum);
        }
        return admittedBy.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Without a budget (nor a capacity, which binds like one) what a partition may take does not depend on
     * what the others took, so consecutive partitions share a transaction until together they wait for a
     * batch: a transaction admits about a batch of jobs whether they come from one busy partition or from
     * many with a few each, and the cost of a transaction (its commit, its locks' statement) is paid per
     * batch, not per partition (ADR 0016). Each partition takes at most {@code share}: a batch, or its part
     * of this node's free threads when they bind (ADR 0027). Shared limits (ADR 0049) do bind across partitions;
     * the admission reckons them for the whole group under the keys' locks. @return admitted
     */
    private static int inGroups(EffectivePolicy policy, List<ClaimedPartition> ordered, int share, int batch, Admitter admitter) {
        int admitted = 0;
        List<ClaimedPartition> group = new ArrayList<>();
        int waiting = 0;
        for (ClaimedPartition p : ordered) {
            group.add(p);
            waiting += Math.min(Math.min(share, batch), p.pending());
            if (waiting >= Math.min(batch, admitter.room())) { // a group never wants more than the free threads
                admitted += admitter.admitGroup(policy, group, batch, share);
                group.clear();
                waiting = 0;
            }
        }
        if (!group.isEmpty()) {
            admitted += admitter.admitGroup(policy, group, batch, share);
        }
        // equal parts leave the remainder of the threads (7 of 15 each for two partitions: one): the first
        // partitions with more waiting take it, so no thread is left empty for want of a share
        for (int i = 0; i < ordered.size() && share < batch && admitter.room() > 0; i++) {
            ClaimedPartition p = ordered.get(i);
            if (p.pending() > share && admitter.admittedFrom(p.id()) == share) { // took its whole share: nothing denied it
                admitted += admitter.admitOne(p, policy, batch - share, admitter.room());
            }
        }
        return admitted;
    }
}
