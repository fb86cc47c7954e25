package io.dispatchpolicy.faults.app;

import io.dispatchpolicy.api.PartitionPause;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.time.Duration;

/**
 * Scenario (k)'s job that met a "429, retry after {@code pauseSeconds}": it pauses its own partition on every node
 * (ADR 0033) and completes; without {@code pauseSeconds} it sleeps {@code sleepMs} and completes.
 */
@Dependent
@Named("faultPausingBatchlet")
public class PausingFaultBatchlet extends AbstractBatchlet {

    @Inject
    JobContext job;

    @Inject
    PartitionPause pause;

    @Inject
    @BatchProperty
    String pauseSeconds;

    @Inject
    @BatchProperty
    String sleepMs;

    @Override
    public String process() throws InterruptedException {
        if (pauseSeconds != null && !pauseSeconds.isBlank()) {
            pause.pauseFor(job.getExecutionId(), Duration.ofSeconds(Long.parseLong(pauseSeconds.strip())), "HTTP 429 from the tenant's API");
        }
        if (sleepMs != null && !sleepMs.isBlank()) {
            Thread.sleep(Long.parseLong(sleepMs.strip()));
        }
        return "COMPLETED";
    }
}
