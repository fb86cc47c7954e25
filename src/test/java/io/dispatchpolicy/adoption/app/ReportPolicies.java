package io.dispatchpolicy.adoption.app;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.Map;

/** One partition per tenant, one report of a tenant at a time. */
@ApplicationScoped
public class ReportPolicies {

    public static final String POLICY = "adopted-reports";
    public static final String JOB = "adopted-report";

    @Produces
    Policy reports() {
        return Policy.named(POLICY)
                .governs(JOB)
                .context(params -> Map.of("tenant", params.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(1))
                .build();
    }
}
