/**
 * This node: its identity and shards ({@link io.dispatchpolicy.node.ThisNode}), its row and liveness lock
 * ({@link io.dispatchpolicy.node.NodeRepository}, {@link io.dispatchpolicy.node.NodeLiveness}, ADR 0007),
 * whether its database is reachable ({@link io.dispatchpolicy.node.DatabaseOutage}, ADR 0006) and the
 * signal that wakes its idle tick ({@link io.dispatchpolicy.node.TickSignal}). Every role may ask; none is
 * asked back.
 */
package io.dispatchpolicy.node;
