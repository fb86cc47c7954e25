package io.dispatchpolicy.console;

/** Operator actions on whole policies. */
public interface PolicyControl {

    /**
     * Holds every partition of the policy, including partitions created after the pause: staging goes
     * on, admission stops.
     */
    void pause(String policyName);

    void resume(String policyName);

    /** Deletes every staged job of every partition of the policy (jobs in flight run on); @return how many. */
    int drain(String policyName);
}
