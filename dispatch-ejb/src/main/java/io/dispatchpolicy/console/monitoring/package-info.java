/**
 * What the console and the JSON endpoint show: read models of the engine's state (totals, throughput,
 * trend, denials, per-policy and per-partition views), the plain-language hints derived from them,
 * and the operator actions on partitions; with the queries behind them ({@code MonitoringRepository},
 * {@code PartitionBrowser}, {@code DeadJobBrowser}): the console's read side owns its SQL, and the
 * engine's repositories return nothing of it (ADR 0018).
 */
package io.dispatchpolicy.console.monitoring;

