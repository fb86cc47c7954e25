/**
 * Upkeep: a node's maintenance as one list of tasks, each with its interval, run by one loop
 * ({@link io.dispatchpolicy.upkeep.Maintainer}, plain Java, tested with a settable clock) on the node's
 * maintenance thread; and the tasks that belong to no other role: recovery and reconcile of executions
 * whose node or runner is gone ({@link io.dispatchpolicy.upkeep.DefaultRecoveryService}), the sweep of what
 * the engine no longer needs ({@link io.dispatchpolicy.upkeep.Sweeper}), and JBeret's own retention
 * ({@link io.dispatchpolicy.upkeep.ExecutionRetention}). The list itself is the node lifecycle's (ADR 0018).
 */
package io.dispatchpolicy.upkeep;
