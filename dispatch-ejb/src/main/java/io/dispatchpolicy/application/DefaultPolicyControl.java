package io.dispatchpolicy.application;

import io.dispatchpolicy.infrastructure.persistence.PolicyStateRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.Set;

@Stateless
public class DefaultPolicyControl implements PolicyControl {

    @Inject
    PolicyRegistry policies;

    @Inject
    PolicyStateRepository state;

    @Override
    public void pause(String policyName) {
        state.setPaused(known(policyName), true);
    }

    @Override
    public void resume(String policyName) {
        state.setPaused(known(policyName), false);
    }

    @Override
    public Set<String> pausedPolicies() {
        return state.pausedPolicies();
    }

    private String known(String policyName) {
        return policies.named(policyName).orElseThrow(() -> new IllegalArgumentException("No policy named '" + policyName + "'"))
                .name();
    }
}
