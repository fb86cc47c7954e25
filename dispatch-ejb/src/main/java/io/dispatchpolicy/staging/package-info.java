/**
 * Staging, the first room of a job's way (ADR 0018): where a submission goes — its policy, partition,
 * lane, priority and shard ({@link io.dispatchpolicy.staging.SubmissionPlacement}) — and, for a policy
 * with demotion rules, the tenant count that may move it to a slower lane
 * ({@link io.dispatchpolicy.staging.NoisyTenants}, counted first in the submitting transaction, ADR 0011).
 * The staging service and statements join this folder as the cut goes on.
 */
package io.dispatchpolicy.staging;
