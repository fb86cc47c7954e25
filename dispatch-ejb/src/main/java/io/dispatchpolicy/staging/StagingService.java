package io.dispatchpolicy.staging;

import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Policy;

import java.util.List;
import java.util.Properties;

/** Validates governed submissions and stages them in the caller's transaction. */
public interface StagingService {

    /**
     * Stages every job or none.
     *
     * @param options  the caller's priority (else the policy's priority function decides) and due time
     *
     * @return submission ids in the order of {@code parameters}
     * @throws io.dispatchpolicy.api.SubmissionRejectedException when any job is invalid; nothing is staged
     */
    long[] stage(Policy policy, String jobXmlName, List<Properties> parameters, SubmitOption... options);

    /** As {@link #stage}, telling for each job whether it was staged, a duplicate, or debounced (ADR 0036). */
    List<io.dispatchpolicy.api.Submitted> stageEach(Policy policy, String jobXmlName, List<Properties> parameters,
                                                    SubmitOption... options);

    /**
     * As {@link #stageEach}, on behalf of {@code user}, who was allowed to start batch jobs when the work was
     * submitted: for what the engine stages later on a submitter's behalf (a continuation, ADR 0051).
     */
    List<io.dispatchpolicy.api.Submitted> stageEachAs(String user, Policy policy, String jobXmlName, List<Properties> parameters,
                                                      SubmitOption... options);

    /**
     * Stages the restart of a FAILED or STOPPED execution through its policy (retry strategy
     * {@code restage}); it is admitted like a new submission and then restarted the Jakarta Batch way.
     *
     * @return the restart's submission id
     * @throws jakarta.batch.operations.JobRestartException when the execution cannot be restarted
     */
    long stageRestart(Policy policy, long executionId, Properties restartParameters);

}
