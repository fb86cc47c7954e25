/**
 * How applications submit: the {@link io.dispatchpolicy.api.Governed} {@code JobOperator}
 * ({@link io.dispatchpolicy.operator.GovernedJobOperator}), whose {@code start} the
 * {@link io.dispatchpolicy.operator.PolicyInterceptor} turns into staging for governed jobs, the
 * {@link io.dispatchpolicy.api.DispatchOperator} for bulk submission and status, and
 * {@link io.dispatchpolicy.api.DispatchSchedules} for schedules at runtime. The implementations of the
 * public {@code api}.
 */
package io.dispatchpolicy.operator;
