/**
 * What runs by itself on a node: start and stop ({@link io.dispatchpolicy.lifecycle.NodeLifecycle}: checks,
 * registration, the maintenance list and its thread, recovery after an outage) and the tick loop
 * ({@link io.dispatchpolicy.lifecycle.TickLoop}). The top of the engine: it may call every role.
 */
package io.dispatchpolicy.lifecycle;
