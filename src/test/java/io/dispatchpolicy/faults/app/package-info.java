/**
 * What the fault suite deploys as an EJB module next to the engine: the {@code fault-storm} policy
 * (job {@code fault-job}, one partition per {@code tenant}, concurrency 3), the job's sleeping
 * batchlet, and the bean that stages a storm through {@code DispatchOperator}. These classes run
 * inside WildFly, never in the test JVM.
 */
package io.dispatchpolicy.faults.app;
