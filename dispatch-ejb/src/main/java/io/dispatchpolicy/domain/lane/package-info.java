/**
 * Lane arithmetic, as pure functions: how an iteration's free slots or tick budget are split between
 * a policy's weighted lanes with guaranteed minimums ({@link io.dispatchpolicy.domain.lane.LaneShares}),
 * and the virtual time that keeps a budget split exact across iterations
 * ({@link io.dispatchpolicy.domain.lane.LaneClock}). No database or container types.
 */
package io.dispatchpolicy.domain.lane;
