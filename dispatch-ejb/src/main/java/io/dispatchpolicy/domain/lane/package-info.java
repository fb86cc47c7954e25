/**
 * Lane arithmetic, as pure functions: how an iteration's free slots or tick budget are split between
 * a policy's weighted lanes with guaranteed minimums ({@link io.dispatchpolicy.domain.lane.LaneShares}),
 * and the virtual time that keeps a budget split exact across iterations
 * ({@link io.dispatchpolicy.domain.lane.LaneClock}), and which lane a noisy tenant's jobs are demoted to
 * given its counts ({@link io.dispatchpolicy.domain.lane.DemotedPlacement}), read from its cumulative
 * ring of bucket counts ({@link io.dispatchpolicy.domain.lane.TenantWindow}), and how far a lane may lend
 * and borrow ({@link io.dispatchpolicy.domain.lane.LaneLimits}). No database or container
 * types.
 */
package io.dispatchpolicy.domain.lane;
