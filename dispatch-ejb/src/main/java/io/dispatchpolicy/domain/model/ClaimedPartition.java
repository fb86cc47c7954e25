package io.dispatchpolicy.domain.model;

/**
 * A partition the tick claimed for this iteration.
 *
 * @param id           row id
 * @param policyName   its policy
 * @param partitionKey its key
 * @param pending      staged jobs waiting when it was claimed
 */
public record ClaimedPartition(long id, String policyName, String partitionKey, int pending) {
}
