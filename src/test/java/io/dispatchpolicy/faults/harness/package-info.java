/**
 * The fault harness, run in the test JVM: an embedded PostgreSQL that can be stopped in immediate mode
 * and started again on the same data directory and port ({@link io.dispatchpolicy.faults.harness.FaultDatabase}),
 * the provisioned WildFly started with {@code standalone.sh} on a base directory of its own, killed,
 * stopped and restarted ({@link io.dispatchpolicy.faults.harness.FaultServer}), several of them on one
 * database when a scenario asks, each with its node name and system properties
 * ({@link io.dispatchpolicy.faults.harness.ServerSpec}), the job and policy a scenario checks
 * ({@link io.dispatchpolicy.faults.harness.Workload}), the fault EAR
 * ({@link io.dispatchpolicy.faults.harness.FaultDeployment}), the storm submitted over HTTP
 * ({@link io.dispatchpolicy.faults.harness.Storm}), and one scenario's run tying them together
 * ({@link io.dispatchpolicy.faults.harness.FaultRun}).
 */
package io.dispatchpolicy.faults.harness;
