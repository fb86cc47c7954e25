/**
 * What a fault scenario checks once the storm has drained, with plain JDBC against the fault
 * database: JBeret's {@code job_execution}/{@code job_instance} rows and the engine's
 * {@code dispatch.*} tables ({@link io.dispatchpolicy.faults.check.Observations}), the invariants over
 * them ({@link io.dispatchpolicy.faults.check.Invariants}), and the per-scenario results written to
 * {@code target/faults/results.json} and {@code results.md} ({@link io.dispatchpolicy.faults.check.Results}).
 */
package io.dispatchpolicy.faults.check;
