package io.dispatchpolicy.domain.schedule;

import java.time.Instant;

/**
 * A schedule as the database holds it.
 *
 * @param source       code, config (standalone.xml) or console
 * @param version      raised by every change to what or when an occurrence runs; a live future
 *                     occurrence always belongs to the current version (a foreign key holds it)
 * @param declaredHash for code and config schedules, the declaration last applied (an operator's
 *                     enable or disable holds until the declaration itself changes)
 * @param cutFrom      the first run time the last catch-up cut skipped, or null
 * @param cutTo        the last one
 */
public record StoredSchedule(long id, String source, int version, ScheduleDefinition definition, String declaredHash,
                             Instant cutFrom, Instant cutTo) {

    public static final String CODE = "code";
    public static final String CONFIG = "config";
    public static final String CONSOLE = "console";

    public String name() {
        return definition.name();
    }

    public boolean enabled() {
        return definition.enabled();
    }
}
