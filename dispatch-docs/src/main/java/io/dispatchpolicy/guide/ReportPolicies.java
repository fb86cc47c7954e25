// tag::policy[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;

/** The policy governing the daily report: one partition per tenant, each throttled and capped. */
@ApplicationScoped
public class ReportPolicies {

    @Produces
    Policy reports() {
        return Policy.named("reports")
                .governs("daily-report")                          // META-INF/batch-jobs/daily-report.xml
                .partitionBy(ctx -> ctx.get("tenant"))            // a job parameter names the partition
                .gate(Gate.throttle(30, Duration.ofMinutes(1)))   // at most 30 a minute per tenant
                .gate(Gate.concurrency(2))                        // two of a tenant at a time
                .build();
    }
}
// end::policy[]
