package io.dispatchpolicy.spi;

import java.util.Map;

/**
 * Names the tenant a job is counted for by demotion rules, from its context. Null or blank: the job is
 * neither counted nor demoted (and the policy logs a warning, at most once a minute).
 */
@FunctionalInterface
public interface TenantFunction {
    Object apply(Map<String, Object> context);
}
