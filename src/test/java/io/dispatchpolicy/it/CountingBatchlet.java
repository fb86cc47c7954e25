package io.dispatchpolicy.it;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Counts its runs per execution, so a test can tell a job ran exactly once; optionally sleeps, fails,
 * and tracks how many jobs of its tenant run at once.
 */
@Dependent
@Named("countingBatchlet")
public class CountingBatchlet extends AbstractBatchlet {

    @Inject
    JobContext job;

    @Inject
    @BatchProperty
    String sleepMs;

    @Inject
    @BatchProperty
    String fail;

    @Inject
    @BatchProperty
    String tenant;

    /** When it fails: the job's exit status to fail with (a retry function reads it). */
    @Inject
    @BatchProperty
    String exitStatus;

    private volatile Thread running;

    @Override
    public String process() throws Exception {
        running = Thread.currentThread();
        Runs.record(job.getExecutionId());
        String key = job.getJobName() + "/" + tenant;
        Running.enter(key);
        Running.enter(job.getJobName());
        try {
            if (sleepMs != null && !sleepMs.isEmpty()) {
                try {
                    // "1000-3000": a different length each run, as a recurring job's runs differ
                    int dash = sleepMs.indexOf('-');
                    Thread.sleep(dash < 0 ? Long.parseLong(sleepMs) : java.util.concurrent.ThreadLocalRandom.current()
                            .nextLong(Long.parseLong(sleepMs.substring(0, dash)), Long.parseLong(sleepMs.substring(dash + 1)) + 1));
                } catch (InterruptedException stopped) {
                    return "STOPPED";
                }
            }
            if ("true".equals(fail)) {
                if (exitStatus != null && !exitStatus.isEmpty()) {
                    job.setExitStatus(exitStatus);
                }
                throw new IllegalStateException("failing as asked");
            }
            return "COMPLETED";
        } finally {
            running = null;
            Running.exit(key);
            Running.exit(job.getJobName());
        }
    }

    /** A stop cuts the sleep short, as a batchlet honouring {@code JobOperator.stop} does. */
    @Override
    public void stop() {
        Thread thread = running;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
