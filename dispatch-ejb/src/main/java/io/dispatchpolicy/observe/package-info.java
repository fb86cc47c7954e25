/**
 * What the engine tells about itself. Metrics for a metrics stack (Prometheus scrape, OTLP push) through
 * WildFly's micrometer subsystem: {@link io.dispatchpolicy.observe.EngineMetrics} is what the roles call,
 * {@link io.dispatchpolicy.observe.MetricsSampler} samples what only the database knows (staged, in flight,
 * tenants demoted) as a maintenance task; only {@code MicrometerMeters} touches Micrometer's classes, so a
 * server without the subsystem runs the engine without metrics. Labels are bounded (policy, lane, reason,
 * status): never a partition key (ADR 0017). Also the per-minute history
 * ({@link io.dispatchpolicy.observe.HistoryRecorder}), the tick samples and the executions ended since the
 * last one, and who is demoted now ({@link io.dispatchpolicy.observe.DemotedTenants}).
 */
package io.dispatchpolicy.observe;
