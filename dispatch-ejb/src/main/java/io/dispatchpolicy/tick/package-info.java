/**
 * The tick (ADR 0003, 0013): {@link io.dispatchpolicy.tick.TickRunner} runs iterations — the due-jobs
 * step ({@link io.dispatchpolicy.tick.DueJobs}: promote, age, find bypassing restarts), one claim
 * ({@link io.dispatchpolicy.tick.Claims}), then each policy's round: outside lanes
 * {@link io.dispatchpolicy.tick.PolicyRound} (priority tiers, fair shares, groups), for lanes
 * {@link io.dispatchpolicy.tick.LaneRound} (shares by weight), both bounded by the policy's
 * {@link io.dispatchpolicy.tick.Scarcity} and handing partitions to the admission through an
 * {@link io.dispatchpolicy.tick.Admitter}. The tick's own statements run in short transactions of
 * their own ({@link io.dispatchpolicy.tick.TickTransactions}). What wakes an idle tick is the node's
 * ({@code node.TickSignal}); the loop that runs the tick is the node's lifecycle.
 */
package io.dispatchpolicy.tick;
