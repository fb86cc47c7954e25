/**
 * Test infrastructure shared by the test suites, outside the deployments: {@link
 * io.dispatchpolicy.testing.KeptDeployments} keeps one Arquillian deployment for every class that declares
 * it (ADR 0020).
 */
package io.dispatchpolicy.testing;
