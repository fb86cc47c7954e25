package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.policy.EffectivePolicy;

import java.util.OptionalInt;

/**
 * What bounds a policy's admissions in one iteration, written once for every kind of round: the free
 * slots of its capacity (as this iteration counts them; each admission still counts under the policy's
 * lock, which is what holds the capacity) or its tick budget, whichever is smaller, and the reason the
 * partitions it does not reach are denied with. Neither set: nothing is scarce.
 *
 * @param left      what may still be admitted this iteration; empty when nothing bounds it
 * @param exhausted {@link Denial#CAPACITY_FULL} when the capacity binds, else {@link Denial#TICK_CAP_EXHAUSTED}
 * @param full      the policy has a capacity and no slot of it is free: the tick waits for one to free on this node
 */
record Scarcity(OptionalInt left, String exhausted, boolean full) {

    /** @param inFlight the policy's jobs in flight now, read only for a policy with a capacity */
    static Scarcity of(EffectivePolicy policy, java.util.function.LongSupplier inFlight) {
        OptionalInt budget = policy.tickAdmissionBudget();
        if (policy.capacity().isEmpty()) {
            return new Scarcity(budget, Denial.TICK_CAP_EXHAUSTED, false);
        }
        int free = free(policy, inFlight.getAsLong());
        return budget.isEmpty() || free < budget.getAsInt()
                ? new Scarcity(OptionalInt.of(free), Denial.CAPACITY_FULL, free == 0)
                : new Scarcity(budget, Denial.TICK_CAP_EXHAUSTED, free == 0);
    }

    /** The capacity's free slots with {@code inFlight} jobs in flight (never negative). */
    static int free(EffectivePolicy policy, long inFlight) {
        return (int) Math.max(0, policy.capacity().getAsInt() - inFlight);
    }

    boolean capacityBinds() {
        return Denial.CAPACITY_FULL.equals(exhausted);
    }
}
