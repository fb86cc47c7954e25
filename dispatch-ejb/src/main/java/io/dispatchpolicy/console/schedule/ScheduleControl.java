package io.dispatchpolicy.console.schedule;

import io.dispatchpolicy.console.audit.Actor;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What an operator does with schedules (the console, the REST endpoint). Each changing action is checked
 * against the actor's roles and audited (ADR 0022). Every method naming an unknown schedule throws
 * {@link IllegalArgumentException}; an invalid definition throws
 * {@link io.dispatchpolicy.spi.ScheduleDeclarationException} naming the field.
 */
public interface ScheduleControl {

    /** Every schedule, by name. */
    List<ScheduleSummary> schedules();

    /**
     * What is wrong, now, with this node's schedule declarations in standalone.xml ({@code dispatch.schedule.*}):
     * the message naming the schedule and the field; empty when nothing is. Meanwhile every schedule keeps its last
     * valid definition.
     */
    Optional<String> declarationProblem();

    Optional<ScheduleDetail> schedule(String name);

    /** A new console-created schedule; enabled ones get their first future occurrence at once. */
    void create(ScheduleDefinition definition, Actor actor);

    /**
     * A new schedule created in the console or by the application ({@code source} {@code console} or {@code api});
     * the application's is idempotent by name.
     *
     * @return true when created; false when the application's schedule of that name exists (left as it is)
     */
    boolean create(ScheduleDefinition definition, String source, Actor actor);

    /**
     * Replaces a console-created schedule's definition; its future occurrence is superseded and a new
     * one staged on the new grid. Declared schedules (code, standalone.xml) are changed where declared.
     */
    default void edit(String name, ScheduleDefinition definition, Actor actor) {
        edit(name, definition, io.dispatchpolicy.domain.schedule.StoredSchedule.CONSOLE, actor);
    }

    /** Replaces the definition of a schedule created where {@code source} says (console, api), as {@link #edit}. */
    void edit(String name, ScheduleDefinition definition, String source, Actor actor);

    /** Deletes a console-created schedule and its future occurrence; past executions stay. */
    default void delete(String name, Actor actor) {
        delete(name, io.dispatchpolicy.domain.schedule.StoredSchedule.CONSOLE, actor);
    }

    /** Deletes a schedule created where {@code source} says (console, api), as {@link #delete}. */
    void delete(String name, String source, Actor actor);

    /** The definitions of every schedule whose name starts with {@code prefix}, by name. */
    List<ScheduleDefinition> definitions(String prefix);

    /** Stages the schedule's future occurrence now rather than at the next watchdog pass. @return true when it staged one */
    boolean start(String name);

    /** @return true when it staged the future occurrence (false: it had one, or is disabled) */
    boolean enable(String name, Actor actor);

    /** @return true when it was enabled */
    boolean disable(String name, Actor actor);

    /** Skips the next occurrence; the one after it is staged. @return the skipped run time, if there was one */
    Optional<Instant> skipNext(String name, Actor actor);

    /** An extra run due now, outside the grid. @return its submission id */
    long runNow(String name, Actor actor);

    /** The next {@code n} run times of the schedule's grid strictly after {@code after}. */
    List<Instant> nextRunTimes(String name, Instant after, int n);

    /** Every calendar of excluded times (ADR 0053), by name: declared in code or standalone.xml, or created in the console. */
    List<CalendarSummary> calendars();

    /**
     * Creates or changes a console calendar from its text fields ({@code zone}, {@code dates}, {@code yearly}, {@code days},
     * {@code windows}); the futures of the schedules naming it are restaged under it. Refused for a calendar declared in
     * code or standalone.xml, a field that does not parse, or a change that leaves a schedule naming it no run time.
     */
    void saveCalendar(String name, java.util.Map<String, String> fields, Actor actor);

    /** Deletes a console calendar no schedule names. */
    void deleteCalendar(String name, Actor actor);
}
