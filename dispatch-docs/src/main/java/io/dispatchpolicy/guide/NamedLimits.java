// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.Map;

@ApplicationScoped
public class NamedLimits {

    @Produces
    Limit crm() {
        return Limit.named("crm-api")
                .perKey("customer")                              // each policy's context value of that name
                .concurrency(5)                                  // per customer, over every policy that uses it
                .throttle(10, Duration.ofSeconds(1))             // and 10 calls a second per customer
                .totalConcurrency(8)                             // 8 in all
                .build();
    }

    @Produces
    Policy exports() {
        return Policy.named("exports").governs("export")
                .context(p -> Map.of("customer", p.getProperty("customer")))
                .partitionBy(ctx -> ctx.get("customer"))
                .limit("crm-api")
                .build();
    }

    @Produces
    Policy syncs() {
        return Policy.named("syncs").governs("sync")
                .context(p -> Map.of("customer", p.getProperty("customer"), "region", p.getProperty("region")))
                .partitionBy(ctx -> ctx.get("region"))           // partitioned otherwise, limited alike
                .limit("crm-api")
                .build();
    }
}
// end::all[]
