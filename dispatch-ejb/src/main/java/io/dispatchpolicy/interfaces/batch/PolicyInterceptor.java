package io.dispatchpolicy.interfaces.batch;

import io.dispatchpolicy.application.PolicyRegistry;
import io.dispatchpolicy.application.StagingService;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.spi.Policy;
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
 * a policy governs is staged and answered with a submission id; any other call proceeds to JBeret
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

    @AroundInvoke
    public Object admit(InvocationContext invocation) throws Exception {
        Object[] args = invocation.getParameters();
        if (invocation.getMethod().getName().equals("start") && args.length == 2) {
            String jobXml = JobXmlName.require((String) args[0]);
            Optional<Policy> policy = policies.forJob(jobXml);
            if (policy.isPresent()) {
                Properties parameters = (Properties) args[1];
                return staging.stage(policy.get(), jobXml, Collections.singletonList(parameters))[0];
            }
        }
        return invocation.proceed();
    }
}
