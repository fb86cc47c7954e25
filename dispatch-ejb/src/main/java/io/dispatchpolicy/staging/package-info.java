/**
 * Staging, the first room of a job's way (ADR 0018): the staging service
 * ({@link io.dispatchpolicy.staging.DefaultStagingService}: a submission or a restart checked, placed and
 * staged in the caller's transaction), where a submission goes — policy, partition, lane, priority, shard
 * ({@link io.dispatchpolicy.staging.SubmissionPlacement}) — and the staging statements
 * ({@link io.dispatchpolicy.staging.StagingRepository}; a staged row as every statement reads it:
 * {@link io.dispatchpolicy.staging.StagedJobRows}). Dead jobs are kept here too
 * ({@link io.dispatchpolicy.staging.DeadJobRepository}): a dead job is a staged job that may be staged
 * again. Demotion wraps staging from its own folder ({@code staging.demotion}): staging stages jobs in the
 * lanes they come in.
 */
package io.dispatchpolicy.staging;
