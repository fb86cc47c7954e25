/**
 * The tick (ADR 0003, 0013): what wakes it ({@link io.dispatchpolicy.tick.TickSignal}: work staged,
 * a slot freed, each on commit) — and, as the cut by role goes on (ADR 0018), the runner, its kinds
 * of round and the claim statements.
 */
package io.dispatchpolicy.tick;
