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
 */
public record ClaimedPartition(long id, String policyName, String partitionKey, int pending, double decayedAdmits,
                               long decayedAtMillis, long previousCheckedAtMillis, int topPriority, String lane) {
}
