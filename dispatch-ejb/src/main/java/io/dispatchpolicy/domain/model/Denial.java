package io.dispatchpolicy.domain.model;

import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.domain.gate.ConcurrencyCap;
import io.dispatchpolicy.domain.gate.TokenBucket;

import java.time.Duration;
import java.util.List;

/**
 * A partition the tick did not admit from, as written back in one statement per iteration.
 *
 * @param partitionId             the partition
 * @param policyName              its policy (the metrics count denials by policy)
 * @param reason                  one of {@link #REASONS}
 * @param retryAfter              how long it is not claimed again; zero for none
 * @param restoreCheckedAtMillis  when non-zero, its {@code last_checked_at} goes back to this value so
 *                                it stays at the front of the next claim
 */
public record Denial(long partitionId, String policyName, String reason, Duration retryAfter, long restoreCheckedAtMillis) implements java.io.Serializable {

    public static final String TICK_CAP_EXHAUSTED = "tick_cap_exhausted";
    /** The policy has its capacity in flight: the partition keeps its place at the front of the claim. */
    public static final String CAPACITY_FULL = "capacity_full";
    /**
     * The capacity has free slots, but not for this partition's lane: the other lanes keep the part of their
     * minimums they do not lend, or the lane is at its borrowing limit (ADR 0047). It keeps its place, as for
     * {@link #CAPACITY_FULL}.
     */
    public static final String LANE_LIMIT = "lane_limit";
    public static final String ADMISSION_FAILED = "admission_failed";
    public static final String GATE_PARAMETER_INVALID = "gate_parameter_invalid";
    public static final String INVALID_SETTINGS = "invalid_settings";
    public static final String UNKNOWN_POLICY = "unknown_policy";
    /** Every batch thread of the node that claimed it is taken: another node with a free one may admit it. */
    public static final String NODE_THREADS_BUSY = "node_threads_busy";
    /**
     * The partition's next job costs more batch threads than the node that claimed it admits at all (its
     * {@code dispatch.node-threads} was lowered after the job was accepted, ADR 0035): a bigger node may.
     */
    public static final String COST_EXCEEDS_NODE = "job_cost_exceeds_node_threads";

    /**
     * Every reason a partition can be denied for: the gates' own, then the tick's; besides these, a named limit's
     * {@code limit_full:<name>} and {@code limit_throttled:<name>} (SharedLimits).
     */
    public static final List<String> REASONS = List.of(TokenBucket.EMPTY, ConcurrencyCap.FULL, AdaptiveCap.FULL,
            io.dispatchpolicy.domain.gate.CalendarQuota.EXHAUSTED, CAPACITY_FULL, LANE_LIMIT, TICK_CAP_EXHAUSTED, ADMISSION_FAILED, GATE_PARAMETER_INVALID, INVALID_SETTINGS, UNKNOWN_POLICY,
            NODE_THREADS_BUSY, COST_EXCEEDS_NODE);
}
