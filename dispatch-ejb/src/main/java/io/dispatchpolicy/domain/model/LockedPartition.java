package io.dispatchpolicy.domain.model;

/**
 * A partition as its admission transaction sees it under the row lock.
 *
 * @param policyName      its policy
 * @param partitionKey    its key
 * @param lane            its lane; {@code ""} outside lanes
 * @param gateId          the row of its key's gates (its own id outside lanes), locked with it
 * @param pending         staged jobs waiting
 * @param contextJson     the context gates evaluate against (the gate row's: the key's newest)
 * @param gateStateJson   per-gate stored state (token buckets), the gate row's
 * @param decayedAdmits   decayed-admits average as stored
 * @param decayedAtMillis when it was stored (0 = never)
 * @param paused          the policy is paused
 * @param nowMillis       the database's clock, shared by every node
 * @param overridesJson   an operator's gate overrides for its key (the gate row's; V28), null when none
 */
public record LockedPartition(String policyName, String partitionKey, String lane, long gateId, int pending, String contextJson, String gateStateJson, double decayedAdmits,
                              long decayedAtMillis, boolean paused, long nowMillis, String overridesJson) {
}
