package io.dispatchpolicy.it;

import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.HashMap;
import java.util.Map;

/** The policies the system tests submit through. {@code it-open} is deliberately ungoverned. */
@ApplicationScoped
public class TestPolicies {

    private static Policy byTenant(String policy, String job) {
        return Policy.named(policy)
                .governs(job)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }

    @Produces
    Policy flow() {
        return Policy.named("it-flow")
                .governs("it-flow")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""), "plan", p.getProperty("plan", "basic")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }

    @Produces
    Policy atomic() {
        return byTenant("it-atomic", "it-atomic");
    }

    @Produces
    Policy concurrent() {
        return byTenant("it-concurrent", "it-concurrent");
    }

    @Produces
    Policy bulk() {
        return Policy.named("it-bulk")
                .governs("it-bulk.xml")
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .admissionBatchSize(500)
                .build();
    }

    /** Context fails on demand; the partition key comes straight from a parameter that may be missing. */
    @Produces
    Policy checked() {
        return Policy.named("it-checked")
                .governs("it-checked")
                .context(p -> {
                    if (p.containsKey("explode")) {
                        throw new IllegalStateException("context exploded");
                    }
                    Map<String, Object> ctx = new HashMap<>();
                    ctx.put("tenant", p.getProperty("tenant"));
                    if (p.containsKey("weird")) {
                        ctx.put("weird", new Object());
                    }
                    return ctx;
                })
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }
}
