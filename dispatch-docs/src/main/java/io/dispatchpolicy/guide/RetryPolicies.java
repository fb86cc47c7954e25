// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryDecision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;

@ApplicationScoped
public class RetryPolicies {

    @Produces
    Policy fixed() {
        return Policy.named("fixed").governs("fixed-job").partitionBy(ctx -> ctx.get("tenant"))
                .retry(Retries.fixed(Duration.ofMinutes(5)))                       // every 5 minutes, at most 10 times
                .build();
    }

    @Produces
    Policy exponential() {
        return Policy.named("exponential").governs("exponential-job").partitionBy(ctx -> ctx.get("tenant"))
                .retry(Retries.exponential().maxRetries(4))                        // 30 s, 31 s, 62 s, 273 s
                .build();
    }

    @Produces
    Policy custom() {
        return Policy.named("custom").governs("custom-job").partitionBy(ctx -> ctx.get("tenant"))
                .retry(Retries.custom((failed, retry) ->                           // retry counts from 0
                        "NOT_FOUND".equals(failed.getExitStatus()) ? RetryDecision.stop()
                        : retry < 3 ? RetryDecision.after(Duration.ofSeconds(10L << retry))
                        : RetryDecision.exponential()).maxRetries(8))
                .build();
    }
}
// end::all[]
