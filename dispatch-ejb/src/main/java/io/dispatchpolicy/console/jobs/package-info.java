/**
 * The Jobs view's service: one job found by its submission id, an execution id, its job name, its
 * partition or a parameter, and its whole life (staging, admission, each JBeret execution with its
 * steps, restarts and their reasons, death); the actions an admin may take on it (stop, restart through
 * the policy, discard). Reads only, through its own queries ({@code JobsRepository}): staged rows, the
 * admission records and JBeret's own tables.
 */
package io.dispatchpolicy.console.jobs;

