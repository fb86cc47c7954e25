package io.dispatchpolicy.application;

import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;

import java.util.List;

/** Claims partitions and admits their staged jobs into JBeret, in transactions of their own. */
public interface AdmissionService {

    /**
     * Moves up to {@code limit} scheduled jobs whose time has come (database clock) into their
     * partitions' waiting sets, in a short transaction of its own; @return how many.
     */
    int promoteDue(int limit);

    /** Up to {@code limit} due restarts that bypass the gates (read only; each is admitted by {@link #admitBypassed}). */
    List<DueBypass> bypassedDue(int limit);

    /**
     * Admits one due restart that bypasses the gates (its policy's retry strategy is bypass): the same
     * atomic admission, no gate or budget; a paused partition keeps it. @return false when another
     * transaction holds it or its partition, or the partition is paused
     *
     * @throws JobAdmissionException when JBeret refuses the restart (nothing is admitted)
     */
    boolean admitBypassed(DueBypass due);

    /** A bypassing restart JBeret refused waits in its partition as an ordinary restart, its failure counted. */
    void bypassRefused(long submissionId, String error);

    /** Claims up to {@code limit} partitions with pending work, in a short transaction of its own. */
    List<ClaimedPartition> claim(int limit);

    /** Claims, in its own transaction, up to {@code limit} partitions of one lane of a policy. */
    List<ClaimedPartition> claimLane(String policyName, String lane, int limit);

    /**
     * Runs the partition through its policy's gates and admits up to {@code limit} of its staged jobs
     * in one transaction: staged rows removed, JBeret instances and executions created, admissions and
     * in-flight rows written, counters, gate state and decayed admits updated. Runners start after
     * commit. A failure rolls back this partition alone.
     *
     * @throws JobAdmissionException when one staged job cannot be admitted (nothing is admitted)
     */
    AdmissionOutcome admit(ClaimedPartition partition, EffectivePolicy policy, int limit);

    /**
     * As {@link #admit} for several partitions outside lanes of a policy without a capacity, in one
     * transaction: their rows are locked together (any held by another transaction is skipped), then each
     * is admitted as {@code admit} would, up to {@code limit} jobs each. A failure rolls them all back.
     *
     * @return one outcome per partition, in their order
     * @throws JobAdmissionException when one staged job cannot be admitted (nothing is admitted)
     */
    List<AdmissionOutcome> admitTogether(List<ClaimedPartition> partitions, EffectivePolicy policy, int limit);

    /**
     * Admits up to {@code count} of the partition's oldest waiting jobs now, on an operator's word:
     * no gate, budget or pause is consulted, but it is the same atomic admission (JBeret's rows and ours
     * in one transaction). Waits for a tick that holds the partition.
     *
     * @return jobs admitted
     */
    int forceAdmit(long partitionId, int count);

    /** Counts a failed admission of one staged job, parking it at the limit; @return true if parked. */
    boolean failedAttempt(long submissionId, String error);

    /** Writes the deny state of an iteration's denied partitions, in one statement. */
    void deny(List<Denial> denials);

    /** Flags partitions of a paused policy that were created while it was being paused. */
    void markPaused(List<Long> partitionIds);
}
