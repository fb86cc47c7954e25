/**
 * Recurring schedules (ADR 0012): the declared schedules ({@link io.dispatchpolicy.schedule.ScheduleRegistry}),
 * their transactions (one lock order: partitions, then the schedule; {@link io.dispatchpolicy.schedule.ScheduleTransactions}),
 * the chaining of the next occurrence inside the admission transaction ({@link io.dispatchpolicy.schedule.ScheduleChaining}),
 * an occurrence staged ({@link io.dispatchpolicy.schedule.OccurrenceStaging}), and the watchdog that converges every
 * schedule to "exactly one live future occurrence when enabled, none when disabled". The operations the console and
 * the API offer are {@code console.schedule}'s.
 */
package io.dispatchpolicy.schedule;
