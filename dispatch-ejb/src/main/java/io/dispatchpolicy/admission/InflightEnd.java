package io.dispatchpolicy.admission;

/**
 * An ended execution's in-flight row, as freeing its slot returned it: where it ran (its partition, its
 * key's gate row, its policy, null when the partition is gone, and the context its gates evaluate), its
 * queue lag, whether a partition waiting out a full-backoff was woken, the submission it ran for, and an
 * operator's gate overrides for its key (null: none), and whether followers wait for its submission's end (ADR 0051).
 */
public record InflightEnd(long partitionId, long gateId, String policyName, String contextJson, double lagMs, boolean woke,
                          long submissionId, int priority, int attempt, String overridesJson, boolean followed) {
}
