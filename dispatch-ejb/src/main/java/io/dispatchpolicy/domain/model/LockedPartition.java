package io.dispatchpolicy.domain.model;

/**
 * A partition as its admission transaction sees it under the row lock.
 *
 * @param policyName      its policy
 * @param partitionKey    its key
 * @param pending         staged jobs waiting
 * @param contextJson     the context gates evaluate against
 * @param gateStateJson   per-gate stored state (token buckets)
 * @param decayedAdmits   decayed-admits average as stored
 * @param decayedAtMillis when it was stored (0 = never)
 * @param paused          the policy is paused
 * @param nowMillis       the database's clock, shared by every node
 */
public record LockedPartition(String policyName, String partitionKey, int pending, String contextJson, String gateStateJson, double decayedAdmits,
                              long decayedAtMillis, boolean paused, long nowMillis) {
}
