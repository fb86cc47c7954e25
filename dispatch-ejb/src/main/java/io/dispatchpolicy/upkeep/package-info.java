/**
 * Upkeep: a node's maintenance as one list of tasks, each with its interval, run by one loop
 * ({@link io.dispatchpolicy.upkeep.Maintainer}) on the node's maintenance thread — heartbeat, recovery,
 * priority aging, the schedule watchdog, history, sweep (the tasks themselves live with their roles;
 * this folder times them). Plain Java, tested with a settable clock (ADR 0018).
 */
package io.dispatchpolicy.upkeep;
