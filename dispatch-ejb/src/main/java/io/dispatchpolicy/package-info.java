/**
 * Dispatch Policy: per-partition admission control for Jakarta Batch on WildFly.
 *
 * <p>One folder per engine role (ADR 0018), from the entry points down: {@code operator}, {@code lifecycle}
 * and {@code console}; {@code tick} and {@code upkeep}; {@code completion}; {@code admission};
 * {@code schedule}; {@code staging}; and below every role {@code policy}, {@code node}, {@code partition},
 * {@code observe}, with {@code domain} (pure), {@code spi}/{@code api} (public) and {@code infrastructure}
 * (JDBC, JSON, JBeret). A role uses only those below it ({@code ArchitectureTest}).
 *
 * <p>The hot path, in the order a job travels it:
 * <ol>
 *   <li>submit: {@link io.dispatchpolicy.operator.PolicyInterceptor} sends a governed
 *       {@code start} to {@link io.dispatchpolicy.staging.DefaultStagingService}, which stages it
 *       through {@link io.dispatchpolicy.staging.StagingRepository};</li>
 *   <li>tick: {@link io.dispatchpolicy.lifecycle.TickLoop} runs
 *       {@link io.dispatchpolicy.tick.TickRunner}, which claims partitions through
 *       {@link io.dispatchpolicy.tick.Claims};</li>
 *   <li>admit: {@link io.dispatchpolicy.admission.DefaultAdmissionService} moves one partition's jobs
 *       into JBeret in one JTA transaction, using
 *       {@link io.dispatchpolicy.infrastructure.jberet.ExecutionFactory} for the JBeret rows and
 *       {@link io.dispatchpolicy.infrastructure.jberet.LaunchOnCommit} to start the runners after commit;</li>
 *   <li>end: {@link io.dispatchpolicy.completion.DefaultInflightTracker} frees the slot when the
 *       execution ends.</li>
 * </ol>
 */
package io.dispatchpolicy;
