// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.Map;

@ApplicationScoped
public class PolicyDeclaration {

    @Produces
    Policy tenantReports() {
        return Policy.named("tenant-reports")
                .governs("tenant-report", "tenant-export")        // job XML names
                .context(params -> Map.of(
                        "tenant", params.getProperty("tenant"),
                        "rate", Integer.parseInt(params.getProperty("rate", "100"))))
                .partitionBy(ctx -> ctx.get("tenant"))    // required
                .gate(Gate.throttle(ctx -> ((Number) ctx.get("rate")).doubleValue(), Duration.ofMinutes(1)))
                .gate(Gate.concurrency(5))
                .gate(Gate.adaptiveConcurrency(3, 1000).min(1).max(20))
                .fairness(Duration.ofSeconds(30))                   // or .noFairness()
                .tickAdmissionBudget(200)                           // optional
                .admissionBatchSize(200)                            // optional
                .retryStrategy(RetryStrategy.RESTAGE)               // default
                .retry(Retries.exponential().maxRetries(5))         // optional: automatic retries
                .build();
    }
}
// end::all[]
