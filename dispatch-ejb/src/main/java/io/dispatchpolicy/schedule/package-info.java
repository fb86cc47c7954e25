/**
 * Recurring schedules (ADR 0012): the declared schedules ({@link io.dispatchpolicy.schedule.ScheduleRegistry}),
 * their transactions (one lock order: partitions, then the schedule; {@link io.dispatchpolicy.schedule.ScheduleTransactions}),
 * the chaining of the next occurrence inside the admission transaction ({@link io.dispatchpolicy.schedule.ScheduleChaining}),
 * an occurrence staged ({@link io.dispatchpolicy.schedule.OccurrenceStaging}), and the watchdog that converges every
 * schedule to "exactly one live future occurrence when enabled, none when disabled". A fixed-delay schedule's next run
 * is staged by its previous run's end instead ({@code ScheduleChaining#ended}, through the end hook; ADR 0054), and
 * calendars of excluded times ({@link io.dispatchpolicy.schedule.CalendarRegistry}, {@link io.dispatchpolicy.schedule.CalendarRepository})
 * are applied wherever run times are planned, by {@link io.dispatchpolicy.schedule.ScheduleGrids} (ADR 0053). The
 * operations the console and the API offer are {@code console.schedule}'s.
 */
package io.dispatchpolicy.schedule;
