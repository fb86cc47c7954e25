package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;

import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * Operator actions on policies, each checked against the actor's roles and audited with the policy's state
 * before and after.
 */
@Stateless
public class DefaultPolicyControl implements PolicyControl {

    @Inject
    PolicyRegistry policies;

    @Inject
    PolicyStateRepository state;

    @Inject
    StagingRepository staging;

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(DefaultPolicyControl.class.getName());

    @Inject
    Audited audited;

    @Override
    public void pause(String policyName, Actor actor) {
        setPaused(policyName, true, actor, OperatorAction.POLICY_PAUSE);
    }

    @Override
    public void resume(String policyName, Actor actor) {
        setPaused(policyName, false, actor, OperatorAction.POLICY_RESUME);
    }

    private void setPaused(String policyName, boolean paused, Actor actor, OperatorAction action) {
        audited.act(actor, action, policyName, () -> pausedOrRunning(policyName), () -> {
            state.setPaused(known(policyName), paused);
            return paused;
        }, p -> p ? "paused" : "running");
    }

    private String pausedOrRunning(String policyName) {
        return state.pausedPolicies().contains(policyName) ? "paused" : "running";
    }

    @Override
    public int drain(String policyName, Actor actor) {
        return audited.act(actor, OperatorAction.POLICY_DRAIN, policyName, () -> {
            int drained = staging.drainPolicy(known(policyName));
            LOG.info(() -> "Drained policy '" + policyName + "' (" + actor.name() + "): " + drained + " staged job(s) deleted");
            return drained;
        }, n -> n + " staged job(s) deleted");
    }

    private String known(String policyName) {
        return policies.named(policyName).orElseThrow(() -> new IllegalArgumentException("No policy named '" + policyName + "'"))
                .name();
    }
}
