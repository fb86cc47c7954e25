package io.dispatchpolicy.application;

/** Operator actions on one partition. Callers authorize (the console requires {@code dispatch-admin}). */
public interface PartitionControl {

    /** Admits up to {@code count} waiting jobs now, bypassing gates, budget and pause; @return how many. */
    int forceAdmit(long partitionId, int count);

    /** Deletes every staged job of the partition (jobs in flight run on); @return how many. */
    int drain(long partitionId);
}
