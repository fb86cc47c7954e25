/**
 * What runs by itself on every node: the tick ({@link io.dispatchpolicy.interfaces.schedule.TickLoop})
 * and the node's lifecycle, heartbeat and recovery ({@link io.dispatchpolicy.interfaces.schedule.NodeLifecycle}).
 */
package io.dispatchpolicy.interfaces.schedule;
