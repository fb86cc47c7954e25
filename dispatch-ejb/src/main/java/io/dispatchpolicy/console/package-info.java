/**
 * The console's services (ADR 0018): the operator's controls of partitions and policies here, the read side
 * and controls of each page in a folder of its own ({@code console.monitoring}, {@code console.jobs},
 * {@code console.schedule}), each with its queries. Built on the engine's roles; no role returns a console type.
 */
package io.dispatchpolicy.console;
