package io.dispatchpolicy.faults.app;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.Map;

/**
 * The fault suite's policies: the storm's (its cap is what the concurrency invariant checks), and one
 * that retries an always-failing job once, {@link #RETRY_DELAY} after it failed.
 */
@ApplicationScoped
public class FaultPolicies {

    public static final String POLICY = "fault-storm";
    public static final String JOB = "fault-job";
    public static final int CONCURRENCY = 3;

    public static final String RETRY_POLICY = "fault-retry";
    public static final String FAILING_JOB = "fault-failing";
    /** Long enough for a clean stop to finish before the retry is due. */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(20);

    @Produces
    Policy storm() {
        return Policy.named(POLICY)
                .governs(JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(CONCURRENCY))
                .build();
    }

    @Produces
    Policy retrying() {
        return Policy.named(RETRY_POLICY)
                .governs(FAILING_JOB)
                .partitionBy(ctx -> "all")
                .retry(Retries.fixed(RETRY_DELAY).maxRetries(1))
                .build();
    }
}
