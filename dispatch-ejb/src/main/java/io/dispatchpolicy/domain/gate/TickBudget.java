package io.dispatchpolicy.domain.gate;

import java.util.OptionalInt;

/**
 * A policy's admissions for one tick iteration, shared fairly across its claimed partitions:
 * {@code fair_share = ceil(budget / claimed)}. Pass 1 gives each partition up to its share; pass 2
 * hands what is left to partitions that filled theirs. Without a budget every partition may take up
 * to the admission batch size.
 */
public final class TickBudget {

    private final boolean limited;
    private final int budget;
    private final int share;
    private int used;

    public TickBudget(OptionalInt budget, int partitions) {
        this.limited = budget.isPresent();
        this.budget = budget.orElse(Integer.MAX_VALUE);
        this.share = limited ? (int) Math.ceil(this.budget / (double) Math.max(1, partitions)) : Integer.MAX_VALUE;
    }

    public boolean limited() {
        return limited;
    }

    /** What the next partition may take in pass 1. */
    public int nextShare() {
        return Math.min(share, remaining());
    }

    public int remaining() {
        return limited ? budget - used : Integer.MAX_VALUE;
    }

    public boolean exhausted() {
        return remaining() <= 0;
    }

    public void use(int admitted) {
        used += admitted;
    }
}
