package io.dispatchpolicy.completion;

import io.dispatchpolicy.admission.InflightOwner;
import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.node.ThisNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

/**
 * An operator's stop of a governed execution (the governed operator, the console, the API): the request is
 * recorded on its in-flight row before JBeret is asked, so the STOPPED end it causes stands. A STOPPED end nobody
 * recorded is an interruption — this node's suspend or shutdown, or WildFly's batch subsystem suspending
 * another node that shares the job repository (it stops every running execution of the deployment's jobs
 * it finds there) — and recovery runs the job again through its policy (ADR 0021).
 *
 * <p>Only the node that runs an execution can stop it through JBeret (WFLY-14619: JBeret elsewhere marks it
 * STOPPING in the repository, which a chunk step notices at its next checkpoint and a batchlet never). An
 * execution of another node gets the request on its row, and that node's watchdog delivers it to its own
 * JBeret within a second ({@code running.ExecutionWatchdog}, ADR 0031).
 */
@ApplicationScoped
public class JobStops {

    @Inject
    InflightRepository inflight;

    @Inject
    JobRuntime runtime;

    @Inject
    ThisNode node;

    /**
     * Asks the execution to stop, as {@code JobOperator.stop} does, as an operator's decision.
     *
     * @return the name of the other node that runs it and will deliver the stop; empty when it was asked here
     */
    public Optional<String> stop(long executionId) {
        inflight.stopRequested(executionId);
        Optional<InflightOwner> owner = inflight.ownerOf(executionId);
        if (owner.isPresent() && !owner.get().id().equals(node.id())) {
            return Optional.of(owner.get().name()); // its node delivers it (the request commits with the caller)
        }
        runtime.stop(executionId); // here, or not in flight: JBeret answers as it does for any execution
        if (owner.isPresent()) {
            inflight.stopDelivered(executionId);
        }
        return Optional.empty();
    }
}
