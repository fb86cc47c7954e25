package io.dispatchpolicy.faults.app;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sleeps {@code sleepMs}, then completes. {@link #stop()} ends the wait at once, so a server shutdown
 * (which stops running jobs) is not held up by the storm and the job ends STOPPED, as a real job would.
 */
@Dependent
@Named("faultBatchlet")
public class SleepingBatchlet extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String sleepMs;

    private final CountDownLatch stopRequested = new CountDownLatch(1);

    @Override
    public String process() throws InterruptedException {
        long millis = sleepMs == null || sleepMs.isBlank() ? 0 : Long.parseLong(sleepMs.strip());
        return stopRequested.await(millis, TimeUnit.MILLISECONDS) ? "STOPPED" : "COMPLETED";
    }

    @Override
    public void stop() {
        stopRequested.countDown();
    }
}
