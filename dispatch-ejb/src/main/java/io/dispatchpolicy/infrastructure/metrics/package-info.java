/**
 * The engine's metrics for a metrics stack (Prometheus scrape, OTLP push) through WildFly's micrometer
 * subsystem: {@link io.dispatchpolicy.infrastructure.metrics.EngineMetrics} is what the engine calls,
 * {@code io.dispatchpolicy.application.MetricsSampler} (application) samples what only the database knows
 * (staged, in flight). Only {@code MicrometerMeters} touches Micrometer's classes, so a server without
 * the subsystem runs the engine without metrics. Labels are bounded (policy, lane, reason, status):
 * never a partition key (ADR 0017).
 */
package io.dispatchpolicy.infrastructure.metrics;
