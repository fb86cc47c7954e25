/**
 * The tick (ADR 0003, 0013): {@link io.dispatchpolicy.tick.TickRunner} runs iterations — the due-jobs
 * step ({@link io.dispatchpolicy.tick.DueJobs}: promote, age, find bypassing restarts), one claim
 * ({@link io.dispatchpolicy.tick.Claims}), the budget and its rounds (fair, priority, groups, lanes) — and
 * hands each claimed partition to the admission. The tick's own statements run in short transactions of
 * their own ({@link io.dispatchpolicy.tick.TickTransactions}). What wakes an idle tick is the node's
 * ({@code node.TickSignal}); the loop that runs the tick is the node's lifecycle.
 */
package io.dispatchpolicy.tick;
