package io.dispatchpolicy.completion;

import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * An operator's stop of a governed execution (the governed operator, the console): the request is recorded
 * on its in-flight row before JBeret is asked, so the STOPPED end it causes stands. A STOPPED end nobody
 * recorded is an interruption — this node's suspend or shutdown, or WildFly's batch subsystem suspending
 * another node that shares the job repository (it stops every running execution of the deployment's jobs
 * it finds there) — and recovery runs the job again through its policy (ADR 0021).
 */
@ApplicationScoped
public class JobStops {

    @Inject
    InflightRepository inflight;

    @Inject
    JobRuntime runtime;

    /** Asks the execution to stop, as {@code JobOperator.stop} does, as an operator's decision. */
    public void stop(long executionId) {
        inflight.stopRequested(executionId);
        runtime.stop(executionId);
    }
}
