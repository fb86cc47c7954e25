// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.Map;

@ApplicationScoped
public class Sharding {

    @Produces
    Policy events() {
        return Policy.named("events").governs("event-import")
                .context(params -> Map.of("account", params.getProperty("account")))
                .partitionBy(ctx -> ctx.get("account"))
                .shardBy(ctx -> "events-" + Math.floorMod(ctx.get("account").hashCode(), 4))
                .gate(Gate.concurrency(5))
                .build();
    }
}
// end::all[]
