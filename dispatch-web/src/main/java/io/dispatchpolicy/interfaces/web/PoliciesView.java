package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PolicySummary;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.List;

/** One row per policy, with pause, resume and drain for admins. */
@Named
@RequestScoped
public class PoliciesView {

    @Inject
    @Engine
    Monitoring monitoring;

    @Inject
    @Engine
    PolicyControl control;

    @Inject
    ConsoleUser user;

    private List<PolicySummary> policies;

    @PostConstruct
    void load() {
        policies = monitoring.policies();
    }

    public List<PolicySummary> getPolicies() {
        return policies;
    }

    /** The policy's admitted, completed and failed jobs per minute over the last {@link HistoryCharts#MINUTES}. */
    public String historyChart(String policy) {
        return HistoryCharts.of(monitoring.policyHistory(policy, HistoryCharts.MINUTES));
    }

    public void pause(String policy) {
        if (user.act(() -> {
            control.pause(policy, user.getActor());
            return true;
        })) {
            ConsoleUser.info("Policy " + policy + " paused: its partitions are held until it is resumed.");
            load();
        }
    }

    public void resume(String policy) {
        if (user.act(() -> {
            control.resume(policy, user.getActor());
            return true;
        })) {
            ConsoleUser.info("Policy " + policy + " resumed.");
            load();
        }
    }

    public void drain(String policy) {
        int[] drained = {0};
        if (user.act(() -> {
            drained[0] = control.drain(policy, user.getActor());
            return true;
        })) {
            ConsoleUser.info("Policy " + policy + " drained: " + drained[0] + " staged job(s) deleted.");
            load();
        }
    }
}
