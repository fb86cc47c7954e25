package io.dispatchpolicy.api;

import jakarta.inject.Qualifier;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Qualifies the {@code jakarta.batch.operations.JobOperator} whose {@code start} goes through
 * admission control: {@code @Inject @Governed JobOperator jobs;}. A job governed by a policy is
 * staged and its {@code start} returns a submission id; any other job starts at once as usual.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface Governed {
}
