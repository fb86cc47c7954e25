package io.dispatchpolicy.console.monitoring;

import java.util.List;

/**
 * One policy on the policies page.
 *
 * @param gates              its gates with the values in force (standalone.xml's over the declared ones)
 * @param capacity           its jobs in flight at most, cluster-wide; null when it has no capacity
 * @param admittedPerSecond5m admission rate over five minutes
 * @param denialReasons      partitions now waiting, per reason
 * @param topPending         partitions with the most pending jobs
 * @param topAdmitted        partitions with the most admissions ever
 * @param held               why the policy is held by an invalid setting, or null
 * @param lanes              its lanes in force, with their in-flight jobs and shares of admissions
 * @param demoted            tenants demoted now (the most recent first, at most 20)
 */
public record PolicySummary(String name, List<String> jobs, List<String> gates, boolean paused, long partitions,
                            long pending, long parked, long inFlight, Integer capacity, double admittedPerSecond5m,
                            List<KeyCount> denialReasons, List<TopPartition> topPending, List<TopPartition> topAdmitted,
                            HeldPolicy held, List<LaneView> lanes, List<DemotionView> demoted) implements java.io.Serializable {
}
