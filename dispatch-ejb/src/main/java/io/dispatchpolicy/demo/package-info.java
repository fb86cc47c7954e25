/**
 * The demo the run command shows: a {@code demo-report} job governed by the {@code demo-tenants}
 * policy, and a trickle of submissions for a few tenants. Submissions only flow when
 * {@code dispatch.demo.enabled=true}; the policy and the job are harmless otherwise.
 */
package io.dispatchpolicy.demo;
