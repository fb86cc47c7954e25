package io.dispatchpolicy.spi;

import java.util.List;

/**
 * Fired synchronously inside a partition's admission transaction, after JBeret's job instance and
 * execution rows are written and before commit. An observer may audit the admission, or veto it by
 * throwing: the whole partition's admission then rolls back and its jobs stay staged. Small partitions
 * of a policy without a budget share a transaction: a veto rolls the others back too, and each is then
 * admitted again on its own (with new executions), so an auditing observer should write in the
 * transaction, or expect to see a partition's jobs again after a rollback.
 *
 * @param policyName   the policy
 * @param partitionKey the partition
 * @param admitted     one entry per job being admitted
 */
public record JobsAdmitting(String policyName, String partitionKey, List<Admitted> admitted) {

    /** A staged submission and the JBeret execution created for it. */
    public record Admitted(long submissionId, long executionId, String jobName) {
    }
}
