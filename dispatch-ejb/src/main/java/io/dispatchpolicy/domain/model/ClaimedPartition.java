package io.dispatchpolicy.domain.model;

/**
 * A partition the tick claimed for this iteration.
 *
 * @param id                  row id
 * @param policyName          its policy
 * @param partitionKey        its key
 * @param pending             staged jobs waiting when it was claimed
 * @param decayedAdmits       its decayed-admits average as last stored
 * @param decayedAtMillis     when that was stored (0 = never)
 * @param previousCheckedAtMillis its {@code last_checked_at} before this claim (0 = never), restored
 *                            when the tick's budget leaves it out so it stays at the front
 * @param topPriority         the highest priority waiting in it
 * @param lane                its lane; {@code ""} outside lanes
 * @param usage               its slot-seconds for fairness by usage (ADR 0048); {@link Usage#NONE} when not counted
 */
public record ClaimedPartition(long id, String policyName, String partitionKey, int pending, double decayedAdmits,
                               long decayedAtMillis, long previousCheckedAtMillis, int topPriority, String lane, Usage usage) {

    public ClaimedPartition(long id, String policyName, String partitionKey, int pending, double decayedAdmits,
                            long decayedAtMillis, long previousCheckedAtMillis, int topPriority, String lane) {
        this(id, policyName, partitionKey, pending, decayedAdmits, decayedAtMillis, previousCheckedAtMillis, topPriority, lane,
                Usage.NONE);
    }

    /**
     * A partition's slot-seconds as the claim read them: the runs that ended, decayed as they stood at {@code atMillis},
     * and what its running jobs have run so far, decayed to the claim.
     */
    public record Usage(double ended, long atMillis, double running) {
        public static final Usage NONE = new Usage(0, 0, 0);

        /** Its decayed slot-seconds at {@code nowMillis}. */
        public double at(long nowMillis, double halfLifeSeconds) {
            return io.dispatchpolicy.domain.gate.DecayedAdmits.at(ended, atMillis, nowMillis, halfLifeSeconds) + running;
        }
    }
}
