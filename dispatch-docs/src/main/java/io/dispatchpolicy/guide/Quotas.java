// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.QuotaPeriod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.Map;

@ApplicationScoped
public class Quotas {

    // tag::quota[]
    @Produces
    Policy exports() {
        return Policy.named("exports").governs("export")
                .context(p -> Map.of("tenant", p.getProperty("tenant"), "zone", p.getProperty("zone", "UTC"),
                        "plan", p.getProperty("plan", "basic")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.quota(ctx -> "pro".equals(ctx.get("plan")) ? 10_000 : 1_000, QuotaPeriod.MONTH)
                        .inZoneOf("zone"))                  // a month from the 1st, midnight in the tenant's zone
                .gate(Gate.concurrency(2))
                .build();
    }
    // end::quota[]
}
// end::all[]
