package io.dispatchpolicy.faults.app;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sleeps {@code sleepMs}, then completes (or fails, when {@code fail} is {@code true}). {@link #stop()} ends the wait at once, so a server shutdown
 * (which stops running jobs) is not held up by the storm and the job ends STOPPED, as a real job would.
 */
@Dependent
@Named("faultBatchlet")
public class SleepingBatchlet extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String sleepMs;

    /** {@code true}: fails once its sleep is over (scenario (n)'s failing predecessors). */
    @Inject
    @BatchProperty
    String fail;

    private final CountDownLatch stopRequested = new CountDownLatch(1);

    @Override
    public String process() throws InterruptedException {
        long millis = sleepMs == null || sleepMs.isBlank() ? 0 : Long.parseLong(sleepMs.strip());
        if (stopRequested.await(millis, TimeUnit.MILLISECONDS)) {
            return "STOPPED";
        }
        if ("true".equals(fail)) {
            throw new IllegalStateException("failing as asked");
        }
        return "COMPLETED";
    }

    @Override
    public void stop() {
        stopRequested.countDown();
    }
}
