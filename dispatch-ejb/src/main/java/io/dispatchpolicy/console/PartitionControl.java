package io.dispatchpolicy.console;

import io.dispatchpolicy.admission.ForcedAdmission;

/** Operator actions on one partition. Callers authorize (the console requires {@code dispatch-admin}). */
public interface PartitionControl {

    /**
     * Admits up to {@code count} waiting jobs now, bypassing gates, budget and pause. A job that cannot
     * be admitted goes through the tick's failure path — an attempt counted, parked at the limit — and
     * the rest of the count goes on.
     */
    ForcedAdmission forceAdmit(long partitionId, int count);

    /** Deletes every staged job of the partition (jobs in flight run on); @return how many. */
    int drain(long partitionId);
}
