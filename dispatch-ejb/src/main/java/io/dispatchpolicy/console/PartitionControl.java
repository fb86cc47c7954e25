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

    /**
     * Pauses the partition's key (its gate row and its lanes) until {@code until}, on every node: nothing of it is
     * admitted before, jobs in flight run on; replaces a pause in force (a job's too), so it also shortens one.
     *
     * @return until when, in words, as the audit log records it
     * @throws OverrideRefused naming {@code until} or {@code reason} when one is bad; nothing changed
     */
    String pause(long partitionId, java.time.Instant until, String reason, Actor actor);

    /** Ends the pause in force on the partition's key, whoever set it; @return whether one was in force. */
    boolean resume(long partitionId, Actor actor);

    /**
     * Sets an operator's override (ADR 0025): a gate parameter for the partition's key, or its lane's weight or
     * minimum; in force from the next tick until {@code change.until()} (or until cleared). Replaces an override
     * of the same parameter.
     *
     * @return the override in words, as the audit log records it
     * @throws OverrideRefused naming the field at fault; nothing changed
     */
    String setOverride(long partitionId, OverrideChange change, Actor actor);

    /** Clears the override of {@code param} of gate or lane {@code scope}; @return whether one was in force. */
    boolean clearOverride(long partitionId, String kind, String scope, String param, Actor actor);
}
