/**
 * Who may do what in the console and the API, and the record of what was done (issue 33, ADR 0022).
 * Every operator action is an {@link io.dispatchpolicy.console.audit.OperatorAction} with the least
 * {@link io.dispatchpolicy.console.audit.ConsoleRole} it needs; the controls take the
 * {@link io.dispatchpolicy.console.audit.Actor} the console or the API authenticated and run each action
 * through {@link io.dispatchpolicy.console.audit.Audited}, which refuses what the actor may not do and writes
 * exactly one row per action and object to {@code dispatch.audit_log}: who, when, what, on which object, the
 * values before and after, and the outcome. Read back through {@link io.dispatchpolicy.console.audit.AuditLog}.
 */
package io.dispatchpolicy.console.audit;
