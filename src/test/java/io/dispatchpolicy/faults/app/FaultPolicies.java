package io.dispatchpolicy.faults.app;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.Map;

/** The one policy of the fault suite. Its cap is what the concurrency invariant checks. */
@ApplicationScoped
public class FaultPolicies {

    public static final String POLICY = "fault-storm";
    public static final String JOB = "fault-job";
    public static final int CONCURRENCY = 3;

    @Produces
    Policy storm() {
        return Policy.named(POLICY)
                .governs(JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(CONCURRENCY))
                .build();
    }
}
