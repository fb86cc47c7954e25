package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.policy.EffectivePolicy;

import java.util.List;

/** Admits claimed partitions' staged jobs into JBeret, each admission a transaction of its own (the claims are the tick's). */
public interface AdmissionService {

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

    /**
     * Runs the partition through its policy's gates and admits its next staged jobs in one transaction:
     * staged rows removed, JBeret instances and executions created, admissions and in-flight rows written,
     * counters, gate state and decayed admits updated. Runners start after commit. A failure rolls back
     * this partition alone.
     *
     * <p>A job takes its cost in slots (ADR 0035). At most {@code jobs} jobs are taken, in order, filling at
     * most {@code slots} — what the tick's round gives the partition — and never more than its gates, its
     * policy's capacity and {@code room} allow. When not even its next job fits in {@code slots} but it fits
     * those limits, that one job is admitted: a round's share never keeps a costly job out for good.
     *
     * @param jobs  at most this many jobs (the admission batch)
     * @param slots the partition's share of this iteration, in slots ({@link Integer#MAX_VALUE}: none)
     * @param room  this node's free batch threads ({@link Integer#MAX_VALUE}: not counted)
     * @throws JobAdmissionException when one staged job cannot be admitted (nothing is admitted)
     */
    AdmissionOutcome admit(ClaimedPartition partition, EffectivePolicy policy, int jobs, int slots, int room);

    /**
     * As {@link #admit} for several partitions outside lanes of a policy without a capacity, in one
     * transaction: their rows are locked together (any held by another transaction is skipped), then each
     * is admitted as {@code admit} would, up to {@code jobs} and {@code slots} each. A failure rolls them all back; so does a
     * group whose jobs together need more than {@code room}, or pass a shared limit, before JBeret's rows are
     * written ({@link GroupDoesNotFit}: the caller admits them one by one).
     *
     * @return one outcome per partition, in their order
     * @throws JobAdmissionException when one staged job cannot be admitted (nothing is admitted)
     */
    List<AdmissionOutcome> admitTogether(List<ClaimedPartition> partitions, EffectivePolicy policy, int jobs, int slots, int room);

    /**
     * A group's jobs together need more of the node's threads than were free, or more of a shared limit than it
     * leaves (costly jobs taken beyond their share): nothing of the group was admitted. An application exception,
     * so the container rolls back and hands it over as it is (a system exception would be logged as an EJB
     * failure): it is not one.
     */
    @jakarta.ejb.ApplicationException(rollback = true)
    final class GroupDoesNotFit extends RuntimeException {
        public GroupDoesNotFit(String why) {
            super(why, null, false, false);
        }
    }

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

}
