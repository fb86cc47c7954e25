/**
 * Running executions under control (issue 35): the watchdog that stops an execution past its run timeout
 * or its progress timeout ({@link io.dispatchpolicy.running.ExecutionWatchdog}, ADR 0030) on the node that
 * runs it, by the database's clock, with what it reads of the node's running executions
 * ({@link io.dispatchpolicy.running.RunningRepository}). What becomes of a timed-out execution when its
 * runner ends is the completion role's.
 */
package io.dispatchpolicy.running;
