package io.dispatchpolicy.spi;

import jakarta.batch.runtime.JobExecution;

/**
 * A policy's own retry rule ({@link Retries#custom}): called when a governed job's execution ended
 * FAILED and the policy's {@code maxRetries} are not spent yet.
 */
@FunctionalInterface
public interface RetryFunction {

    /**
     * @param failed the execution that failed: its exit status, and through
     *               {@code JobOperator.getStepExecutions(failed.getExecutionId())} the steps that failed
     * @param retry  which retry this would be, from 0
     * @return a delay, {@link RetryDecision#exponential()} or {@link RetryDecision#stop()} (null means stop)
     */
    RetryDecision decide(JobExecution failed, int retry);
}
