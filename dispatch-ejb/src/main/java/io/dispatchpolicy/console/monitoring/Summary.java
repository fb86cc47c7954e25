package io.dispatchpolicy.console.monitoring;

import java.time.Instant;
import java.util.List;

/**
 * The dashboard, also served as JSON.
 *
 * <p>Partition figures (pending, parked, admitted, denied, partitions) are the declared policies': partitions of a
 * policy no deployment here declares (an application undeployed) are named in a hint instead, since nothing admits them.
 *
 * @param pending                staged jobs waiting (parked ones excluded)
 * @param parked                 staged jobs parked after failing to admit
 * @param inFlight               admitted jobs not finished
 * @param dead                   jobs dead after their policy's last retry, kept for an operator
 * @param admittedTotal          jobs ever admitted (partitions still present)
 * @param deniedPartitions       partitions denied now: their last check denied them and they wait until a time ahead
 *                               ({@link #deniedNow} per reason; the Denials page's "denied now" lists them)
 * @param partitions             partitions known
 * @param admittedPerSecond1m    admission rate over the last minute
 * @param admittedPerSecond5m    over five minutes
 * @param admittedPerSecond15m   over fifteen minutes
 * @param pendingTrend           pending jobs per minute over the last 30 minutes
 * @param trendDirection         {@code up}, {@code down} or {@code flat}
 * @param denialReasons          denials per reason over the last 15 minutes: a partition counts once per iteration that denied it
 * @param tickBusyRatio          share of tick time spent admitting over the last 5 minutes (0..1)
 * @param tickMaxDurationSeconds the configured tick length
 * @param throughputTarget       {@code dispatch.adapter-throughput-target}, or null
 * @param drainMinutes           minutes to admit the backlog at the 5-minute rate, or null when nothing is admitted
 * @param failureRate            share of executions that FAILED among those ended in the last 15 minutes
 * @param hints                  what an operator should look at
 * @param node                   this node's tick, database reachability and held policies
 * @param expired24h             jobs that expired at their deadline in the last 24 hours, never run (ADR 0036)
 * @param discarded24h           jobs a backlog cap dropped or replaced in the last 24 hours
 * @param deniedNow              the partitions denied now, per reason: they sum to {@link #deniedPartitions}
 */
public record Summary(long pending, long parked, long inFlight, long dead, long admittedTotal, long deniedPartitions, long partitions,
                      double admittedPerSecond1m, double admittedPerSecond5m, double admittedPerSecond15m,
                      List<TrendPoint> pendingTrend, String trendDirection, List<KeyCount> denialReasons,
                      double tickBusyRatio, double tickMaxDurationSeconds, Double throughputTarget, Double drainMinutes,
                      double failureRate, List<Hint> hints, NodeStatus node, RepositoryHealth repository,
                      Instant generatedAt, long expired24h, long discarded24h, List<KeyCount> deniedNow) implements java.io.Serializable {
}
