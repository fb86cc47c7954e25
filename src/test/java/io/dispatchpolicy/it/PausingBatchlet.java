package io.dispatchpolicy.it;

import io.dispatchpolicy.api.PartitionPause;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.time.Duration;

/**
 * A job whose endpoint answered "429, retry after {@code pauseSeconds}": it pauses its own partition (ADR 0033),
 * then fails when {@code fail} says so (its transaction rolls back; the pause stands) or completes.
 */
@Dependent
@Named("pausingBatchlet")
public class PausingBatchlet extends AbstractBatchlet {

    @Inject
    JobContext job;

    @Inject
    PartitionPause pause;

    @Inject
    @BatchProperty
    String pauseSeconds;

    @Inject
    @BatchProperty
    String fail;

    @Override
    public String process() {
        Runs.record(job.getExecutionId());
        if (pauseSeconds != null && !pauseSeconds.isBlank()) {
            pause.pauseFor(job.getExecutionId(), Duration.ofSeconds(Long.parseLong(pauseSeconds)), "HTTP 429 from the tenant's API");
        }
        if ("true".equals(fail)) {
            throw new IllegalStateException("the call failed: 429");
        }
        return "COMPLETED";
    }
}
