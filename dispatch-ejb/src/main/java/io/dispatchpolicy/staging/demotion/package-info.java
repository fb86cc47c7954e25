/**
 * Demotion of noisy tenants (ADR 0011): a submission's jobs counted for their tenants in the submitting
 * transaction, before they are staged, and placed in the lane of the last rule whose threshold their
 * tenant's count exceeds ({@link io.dispatchpolicy.staging.demotion.NoisyTenants}); the counting statement
 * and its rings ({@code TenantCounts}). The console's and the metrics' reading of who is demoted now is
 * {@code observe.DemotedTenants}.
 */
package io.dispatchpolicy.staging.demotion;
