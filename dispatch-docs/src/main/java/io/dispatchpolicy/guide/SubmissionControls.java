// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.spi.BacklogCap;
import io.dispatchpolicy.spi.KeyFunction;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Uniqueness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

@ApplicationScoped
public class SubmissionControls {

    @Inject
    DispatchOperator dispatch;

    @Produces
    Policy invoices() {
        return Policy.named("invoices").governs("invoice").partitionBy(ctx -> ctx.get("customer"))
                .unique(KeyFunction.parameters("order"), Uniqueness.within(Duration.ofHours(24)))  // one invoice per order a day
                .expireAfter(Duration.ofMinutes(30))                  // not admitted within 30 min of being due: EXPIRED
                .backlogCap(10_000, BacklogCap.Overflow.REJECT)       // at most 10,000 staged per partition
                .build();
    }

    @Produces
    Policy reindex() {
        return Policy.named("reindex").governs("reindex").partitionBy(ctx -> ctx.get("tenant"))
                .debounce(KeyFunction.parameters("tenant"), Duration.ofSeconds(2), Duration.ofSeconds(30))
                .build();
    }

    void submit(Properties props, List<Properties> manyProps) {
        dispatch.submit("invoice", props, SubmitOption.unique("order-42"));                      // while staged or running
        dispatch.submit("invoice", props, SubmitOption.unique("order-42", Duration.ofHours(1))); // … or completed < 1 h ago
        dispatch.submit("report", props, SubmitOption.deadline(Instant.parse("2026-12-01T09:00:00Z")));
        dispatch.submit("report", props, SubmitOption.expireAfter(Duration.ofMinutes(5)));
        dispatch.submit("reindex", props, SubmitOption.debounce("tenant-42", Duration.ofSeconds(2), Duration.ofSeconds(5)));
        List<Submitted> each = dispatch.submitEach("invoice", manyProps);  // per job: STAGED, DUPLICATE or DEBOUNCED, and its id
    }
}
// end::all[]
