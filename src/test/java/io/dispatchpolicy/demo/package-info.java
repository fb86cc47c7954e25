/**
 * The demo the run command shows: a {@code demo-report} job governed by the {@code demo-tenants}
 * policy, and a trickle of submissions for a few tenants whenever it is deployed; and the playground: a
 * policy per feature ({@link io.dispatchpolicy.demo.PlaygroundPolicies}), the scenario each card submits
 * ({@link io.dispatchpolicy.demo.Playground}) and the storm ({@link io.dispatchpolicy.demo.Storm}). An ordinary
 * application of the engine, using only its public API ({@code io.dispatchpolicy.api},
 * {@code io.dispatchpolicy.spi}, the governed {@code JobOperator}): the run command
 * ({@link io.dispatchpolicy.devserver.DevServer}) deploys it as {@code dispatch-demo.jar} beside the
 * built EAR's modules; nothing else includes it.
 */
package io.dispatchpolicy.demo;
