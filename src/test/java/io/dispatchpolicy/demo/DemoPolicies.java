package io.dispatchpolicy.demo;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.Map;

/** The demo's policy: one partition per tenant, each throttled and capped, shared fairly. */
@ApplicationScoped
public class DemoPolicies {

    public static final String JOB = "demo-report";

    @Produces
    Policy demoTenants() {
        return Policy.named("demo-tenants")
                .governs(JOB)
                .context(params -> Map.of("tenant", params.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.throttle(30, Duration.ofMinutes(1)))
                .gate(Gate.concurrency(2))
                .build();
    }
}
