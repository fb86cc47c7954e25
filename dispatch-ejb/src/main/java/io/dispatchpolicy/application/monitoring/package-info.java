/**
 * What the console and the JSON endpoint show: read models of the engine's state (totals, throughput,
 * trend, denials, per-policy and per-partition views), the plain-language hints derived from them,
 * and the operator actions on partitions.
 */
package io.dispatchpolicy.application.monitoring;
