package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.Actor;

import io.dispatchpolicy.admission.ForcedAdmission;

/** Operator actions on one partition; each checked against the actor's roles and audited (ADR 0022). */
public interface PartitionControl {

    /**
     * Admits up to {@code count} waiting jobs now, bypassing gates, budget and pause. A job that cannot
     * be admitted goes through the tick's failure path — an attempt counted, parked at the limit — and
     * the rest of the count goes on.
     */
    ForcedAdmission forceAdmit(long partitionId, int count, Actor actor);

    /** Deletes every staged job of the partition (jobs in flight run on); @return how many. */
    int drain(long partitionId, Actor actor);
}
