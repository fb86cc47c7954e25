package io.dispatchpolicy.admission;

/**
 * A running execution whose timeout the watchdog fired (ADR 0030): it holds no slot any more.
 *
 * @param policyName  its policy (null for rows admitted before policies were recorded on them)
 * @param partitionId the partition it was admitted from
 * @param woke        whether a partition of its key waiting for a slot was made eligible
 */
public record TimedOut(String policyName, long partitionId, boolean woke) {
}
