/**
 * The benchmark harness ({@code ./mvnw -Pbench verify}): scenarios that measure the policy layer
 * against raw JBeret in the same run, on the same server and database, and write
 * {@code dispatch-ear/target/bench/results.json}. Not part of the default test run.
 */
package io.dispatchpolicy.bench;
