/**
 * Recurring schedules as pure functions of their definition and the time they are given: the one model of a
 * schedule and its validation ({@link io.dispatchpolicy.domain.schedule.ScheduleDefinition}), the grids that
 * say when it runs ({@link io.dispatchpolicy.domain.schedule.AnchorGrid},
 * {@link io.dispatchpolicy.domain.schedule.CronGrid}), the single rule that turns a zone's local time into an
 * instant ({@link io.dispatchpolicy.domain.schedule.LocalTimes}), and the planner that picks each next
 * occurrence, catch-up and its limit included ({@link io.dispatchpolicy.domain.schedule.Chain}). No database or
 * container types, and no clock: callers pass {@code now} (ADR 0012).
 */
package io.dispatchpolicy.domain.schedule;
