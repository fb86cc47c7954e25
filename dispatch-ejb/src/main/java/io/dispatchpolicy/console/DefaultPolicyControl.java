package io.dispatchpolicy.console;

import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * Operator actions on policies. Callers authorize: the console and the REST endpoint require the
 * {@code dispatch-admin} role.
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

    @Override
    public void pause(String policyName) {
        state.setPaused(known(policyName), true);
    }

    @Override
    public void resume(String policyName) {
        state.setPaused(known(policyName), false);
    }

    @Override
    public int drain(String policyName) {
        int drained = staging.drainPolicy(known(policyName));
        LOG.info(() -> "Drained policy '" + policyName + "': " + drained + " staged job(s) deleted");
        return drained;
    }

    private String known(String policyName) {
        return policies.named(policyName).orElseThrow(() -> new IllegalArgumentException("No policy named '" + policyName + "'"))
                .name();
    }
}
