package io.dispatchpolicy.application;

import io.dispatchpolicy.spi.Policy;

import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;

/** Validates governed submissions and stages them in the caller's transaction. */
public interface StagingService {

    /**
     * Stages every job or none.
     *
     * @param priority every job's priority when the caller set one; else the policy's priority function
     *
     * @return submission ids in the order of {@code parameters}
     * @throws io.dispatchpolicy.api.SubmissionRejectedException when any job is invalid; nothing is staged
     */
    long[] stage(Policy policy, String jobXmlName, List<Properties> parameters, OptionalInt priority);

    /**
     * Stages the restart of a FAILED or STOPPED execution through its policy (retry strategy
     * {@code restage}); it is admitted like a new submission and then restarted the Jakarta Batch way.
     *
     * @return the restart's submission id
     * @throws jakarta.batch.operations.JobRestartException when the execution cannot be restarted
     */
    long stageRestart(Policy policy, long executionId, Properties restartParameters);
}
