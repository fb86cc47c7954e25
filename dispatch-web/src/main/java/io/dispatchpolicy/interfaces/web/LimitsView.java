package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.LimitView;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.List;

/**
 * The Limits page (ADR 0049): each named limit with its values now, the policies that reference it, its slots in
 * flight in all and its busiest keys, and its buckets. Read-only: limits are declared in code or standalone.xml.
 */
@Named
@RequestScoped
public class LimitsView {

    @Inject
    @Engine
    Monitoring monitoring;

    private List<LimitView> limits;

    @PostConstruct
    void load() {
        limits = monitoring.limits();
    }

    public List<LimitView> getLimits() {
        return limits;
    }

    /** Tokens as shown: whole tokens, "full" for a bucket never charged. */
    public String tokens(Double tokens) {
        return tokens == null ? "—" : Long.toString((long) Math.floor(tokens + 1e-9));
    }
}
