/**
 * How applications submit: the {@link io.dispatchpolicy.api.Governed} {@code JobOperator}
 * ({@link io.dispatchpolicy.interfaces.batch.GovernedJobOperator}), whose {@code start} the
 * {@link io.dispatchpolicy.interfaces.batch.PolicyInterceptor} turns into staging for governed jobs,
 * and the {@link io.dispatchpolicy.api.DispatchOperator} for bulk submission and status.
 */
package io.dispatchpolicy.interfaces.batch;
