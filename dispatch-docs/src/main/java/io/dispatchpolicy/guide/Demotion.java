// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;

@ApplicationScoped
public class Demotion {

    @Produces
    Policy sync() {
        return Policy.named("sync")
                .governs("inventory-sync")
                .partitionBy(ctx -> ctx.get("endpoint"))
                .tenant(ctx -> ctx.get("merchant"))          // default: the partition key
                .lane("default", 9).lane("throttled", 3).lane("superslow", 1)
                .demote(100, Duration.ofHours(1), "throttled")        // least restrictive first …
                .demote(10, Duration.ofMinutes(1), "superslow")       // … the last matching rule wins
                .build();
    }
}
// end::all[]
