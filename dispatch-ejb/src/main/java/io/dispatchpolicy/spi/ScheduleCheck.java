package io.dispatchpolicy.spi;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * The engine's reading of a declared {@link Schedule}, which {@link Schedule.Builder#build()} uses so that a
 * mistake is refused where it is written, by the same rules as standalone.xml and the console (the engine
 * checks every declaration again when it registers it). Found with {@link java.util.ServiceLoader}, as
 * {@code jakarta.batch.runtime.BatchRuntime} finds its job operator, so the spi names no type of the engine
 * (ADR 0018). The engine implements it; an application has no reason to.
 */
public interface ScheduleCheck {

    /**
     * A zone as a declaration names it: a region id such as {@code Europe/Berlin}, or {@code UTC}.
     *
     * @throws ScheduleDeclarationException for an unknown id or a fixed offset, naming the schedule
     */
    ZoneId zone(String schedule, String text);

    /**
     * The instant of a first run given as a local date-time in the schedule's zone.
     *
     * @throws ScheduleDeclarationException when the zone skips that time, naming the schedule
     */
    Instant anchor(String schedule, LocalDateTime local, ZoneId zone);

    /** A cron expression as the engine keeps it (whitespace collapsed); null stays null. */
    String cron(String expression);

    /** @throws ScheduleDeclarationException naming the schedule and the field that is wrong */
    void check(Schedule schedule);

    /** @throws ScheduleDeclarationException naming the calendar and what is wrong */
    void check(Calendar calendar);
}
