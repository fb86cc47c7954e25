/**
 * WildFly's server-level hooks the engine follows: its suspend and resume ({@link
 * io.dispatchpolicy.infrastructure.wildfly.ServerSuspend}, ADR 0021). Knows no engine role: it calls a
 * {@link io.dispatchpolicy.infrastructure.wildfly.SuspendListener}.
 */
package io.dispatchpolicy.infrastructure.wildfly;
