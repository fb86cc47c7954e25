package io.dispatchpolicy.operator;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.infrastructure.jberet.JobInstances;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.staging.StagingService;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import java.util.Collections;
import java.util.Optional;
import java.util.Properties;

/**
 * Admission control at the point of submission: a {@code start(jobXmlName, parameters)} of a job that
 * a policy governs is staged and answered with a submission id; a {@code restart} of such a job is
 * staged too when the policy's retry strategy is {@code restage}. Any other call proceeds to JBeret
 * untouched.
 */
@PolicyGoverned
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class PolicyInterceptor {

    @Inject
    PolicyRegistry policies;

    @Inject
    StagingService staging;

    @Inject
    DispatchOperator dispatch;

    @Inject
    JobInstances instances;

    @AroundInvoke
    public Object admit(InvocationContext invocation) throws Exception {
        Object[] args = invocation.getParameters();
        String method = invocation.getMethod().getName();
        if (method.equals("start") && args.length == 2) {
            String jobXml = JobXmlName.require((String) args[0]);
            Optional<Policy> policy = policies.forJob(jobXml);
            if (policy.isPresent()) {
                return staging.stage(policy.get(), jobXml, Collections.singletonList((Properties) args[1]))[0];
            }
        } else if (method.equals("restart") && args.length == 2) {
            long executionId = executionOf((Long) args[0]);
            Optional<Policy> policy = policies.forJob(instances.jobName(executionId));
            if (policy.isPresent() && policies.effective(policy.get().name()).retryStrategy() == RetryStrategy.RESTAGE) {
                return staging.stageRestart(policy.get(), executionId, (Properties) args[1]);
            }
        }
        return invocation.proceed();
    }

    /** A submission id stands for its execution; a still-staged one has none, and JBeret will say so. */
    private long executionOf(long id) {
        if (DispatchOperator.isSubmissionId(id)) {
            SubmissionStatus status = dispatch.status(id);
            if (status.executionId().isPresent()) {
                return status.executionId().getAsLong();
            }
        }
        return id;
    }
}
