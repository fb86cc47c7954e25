package io.dispatchpolicy.domain.schedule;

import java.time.Instant;

/**
 * A schedule as the database holds it.
 *
 * @param source       code, config (standalone.xml), console or api (DispatchSchedules)
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
    public static final String API = "api";

    /**
     * Created in the console or through the API: it exists in the database only, and is changed and deleted where it
     * was created; the watchdog's sync of declarations leaves it alone.
     */
    public boolean created() {
        return CONSOLE.equals(source) || API.equals(source);
    }

    /** Where it is changed, in words: for a refusal to change it anywhere else. */
    public static String changedIn(String name, String source) {
        return switch (source) {
            case CODE -> "code (a CDI producer of io.dispatchpolicy.spi.Schedule)";
            case CONFIG -> "standalone.xml (dispatch.schedule." + name + ".*)";
            case API -> "the application, through DispatchSchedules";
            default -> "the console";
        };
    }

    public String name() {
        return definition.name();
    }

    public boolean enabled() {
        return definition.enabled();
    }
}
