/**
 * The schedules pages: the operations on schedules ({@link io.dispatchpolicy.console.schedule.ScheduleControl},
 * also behind the public {@code DispatchSchedules}) and what the pages show of a schedule and its occurrences
 * ({@link io.dispatchpolicy.console.schedule.OccurrenceViews}).
 */
package io.dispatchpolicy.console.schedule;
