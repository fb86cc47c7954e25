/**
 * Application services: staging a submission, claiming and admitting partitions in a tick,
 * recovering executions whose runner never started, and the registry of declared policies. Each
 * service is an interface with a {@code Default…} {@code @Stateless} implementation that owns its
 * transaction boundary.
 */
package io.dispatchpolicy.application;
