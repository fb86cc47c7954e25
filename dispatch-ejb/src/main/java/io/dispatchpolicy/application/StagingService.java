package io.dispatchpolicy.application;

import io.dispatchpolicy.spi.Policy;

import java.util.List;
import java.util.Properties;

/** Validates governed submissions and stages them in the caller's transaction. */
public interface StagingService {

    /**
     * Stages every job or none.
     *
     * @return submission ids in the order of {@code parameters}
     * @throws io.dispatchpolicy.api.SubmissionRejectedException when any job is invalid; nothing is staged
     */
    long[] stage(Policy policy, String jobXmlName, List<Properties> parameters);
}
