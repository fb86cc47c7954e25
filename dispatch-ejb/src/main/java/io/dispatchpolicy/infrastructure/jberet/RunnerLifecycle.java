package io.dispatchpolicy.infrastructure.jberet;

import jakarta.batch.runtime.JobExecution;

import java.util.UUID;

/**
 * What the engine does at the exact start and end of an admitted execution (implemented by the
 * application's in-flight tracker).
 */
public interface RunnerLifecycle {

    /**
     * The runner is about to run on {@code node}.
     *
     * @return false when the execution is not this node's to run (recovery gave it to another node, or
     * it already started): the runner must not run
     */
    boolean starting(long executionId, UUID node);

    /** The runner finished (the execution's batch status is its end); its slot is free. */
    void finished(JobExecution execution);
}
