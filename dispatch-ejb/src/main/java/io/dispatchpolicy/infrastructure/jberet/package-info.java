/**
 * JBeret integration. {@link io.dispatchpolicy.infrastructure.jberet.ExecutionFactory} writes JBeret's
 * job instance and execution rows inside the caller's JTA transaction (JBeret's own
 * {@code JobOperator.start} suspends it), {@link io.dispatchpolicy.infrastructure.jberet.LaunchOnCommit}
 * hands the runners to JBeret's thread pool only after that transaction commits, and
 * {@link io.dispatchpolicy.infrastructure.jberet.TrackedJobTask} marks each execution's start and end;
 * {@link io.dispatchpolicy.infrastructure.jberet.LocalRunners} knows which executions this JVM holds a
 * runner for, which is what a node's reconcile trusts (ADR 0006). See
 * docs/adr/0001-same-transaction-jberet-start.md.
 */
package io.dispatchpolicy.infrastructure.jberet;
