/**
 * Recurring schedules (ADR 0012): the declared schedules ({@code ScheduleRegistry}), the operations on
 * them ({@link io.dispatchpolicy.application.schedule.ScheduleControl}), the chaining of the next
 * occurrence inside the admission transaction, the watchdog that converges every schedule to "exactly
 * one live future occurrence when enabled, none when disabled", and the read models the console shows
 * (read by {@code OccurrenceViews}).
 */
package io.dispatchpolicy.application.schedule;
