package io.dispatchpolicy.application.monitoring;

import java.util.List;

/**
 * One policy on the policies page.
 *
 * @param gates              its gates, described
 * @param admittedPerSecond5m admission rate over five minutes
 * @param denialReasons      partitions now waiting, per reason
 * @param topPending         partitions with the most pending jobs
 * @param topAdmitted        partitions with the most admissions ever
 * @param held               why the policy is held by an invalid setting, or null
 */
public record PolicySummary(String name, List<String> jobs, List<String> gates, boolean paused, long partitions,
                            long pending, long parked, long inFlight, double admittedPerSecond5m,
                            List<KeyCount> denialReasons, List<KeyCount> topPending, List<KeyCount> topAdmitted,
                            HeldPolicy held) {
}
