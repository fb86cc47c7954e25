package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.Actor;

/** Operator actions on whole policies; each checked against the actor's roles and audited (ADR 0022). */
public interface PolicyControl {

    /**
     * Holds every partition of the policy, including partitions created after the pause: staging goes
     * on, admission stops.
     */
    void pause(String policyName, Actor actor);

    void resume(String policyName, Actor actor);

    /** Deletes every staged job of every partition of the policy (jobs in flight run on); @return how many. */
    int drain(String policyName, Actor actor);
}
