/**
 * What applications call: the {@link io.dispatchpolicy.api.Governed} {@code JobOperator},
 * the {@link io.dispatchpolicy.api.DispatchOperator} for bulk submission and submission status,
 * and the exception a rejected submission raises.
 */
package io.dispatchpolicy.api;
