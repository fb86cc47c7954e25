package io.dispatchpolicy.domain.model;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.spi.Policy;

/** The job XML name a caller passes to {@code start}: required, compared without {@code .xml}. */
public final class JobXmlName {

    private JobXmlName() {
    }

    /** @return the name without surrounding blanks or {@code .xml} */
    public static String require(String jobXmlName) {
        if (jobXmlName == null || jobXmlName.isBlank()) {
            throw new SubmissionRejectedException("Job XML name is null or blank");
        }
        return Policy.jobName(jobXmlName.strip());
    }
}
