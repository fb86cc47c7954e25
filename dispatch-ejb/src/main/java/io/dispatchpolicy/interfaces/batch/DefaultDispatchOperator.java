package io.dispatchpolicy.interfaces.batch;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.application.PolicyRegistry;
import io.dispatchpolicy.application.StagingService;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.infrastructure.persistence.AdmissionRepository;
import io.dispatchpolicy.spi.Policy;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** Bulk submission and submission status. */
@ApplicationScoped
public class DefaultDispatchOperator implements DispatchOperator {

    @Inject
    PolicyRegistry policies;

    @Inject
    StagingService staging;

    @Inject
    AdmissionRepository admissions;

    @Override
    public long[] submitAll(String jobXmlName, List<Properties> parameters) {
        String jobXml = JobXmlName.require(jobXmlName);
        Optional<Policy> policy = policies.forJob(jobXml);
        if (policy.isPresent()) {
            return staging.stage(policy.get(), jobXml, parameters);
        }
        JobOperator jberet = BatchRuntime.getJobOperator();
        return parameters.stream().mapToLong(p -> jberet.start(jobXml, p)).toArray();
    }

    @Override
    public SubmissionStatus status(long submissionId) {
        return admissions.status(submissionId);
    }
}
