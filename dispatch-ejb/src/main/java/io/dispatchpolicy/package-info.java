/**
 * Dispatch Policy: per-partition admission control for Jakarta Batch on WildFly.
 *
 * <p>The hot path, in the order a job travels it:
 * <ol>
 *   <li>submit: {@link io.dispatchpolicy.interfaces.batch.PolicyInterceptor} sends a governed
 *       {@code start} to {@link io.dispatchpolicy.application.DefaultStagingService}, which stages it
 *       through {@link io.dispatchpolicy.infrastructure.persistence.StagingRepository};</li>
 *   <li>tick: {@link io.dispatchpolicy.interfaces.schedule.TickLoop} runs
 *       {@link io.dispatchpolicy.application.TickRunner}, which claims partitions through
 *       {@link io.dispatchpolicy.infrastructure.persistence.PartitionRepository};</li>
 *   <li>admit: {@link io.dispatchpolicy.application.DefaultAdmissionService} moves one partition's jobs
 *       into JBeret in one JTA transaction, using
 *       {@link io.dispatchpolicy.infrastructure.jberet.ExecutionFactory} for the JBeret rows and
 *       {@link io.dispatchpolicy.infrastructure.jberet.LaunchOnCommit} to start the runners after commit.</li>
 * </ol>
 */
package io.dispatchpolicy;
