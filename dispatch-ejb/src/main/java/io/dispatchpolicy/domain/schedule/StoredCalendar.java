package io.dispatchpolicy.domain.schedule;

/**
 * A calendar as the database holds it (ADR 0053).
 *
 * @param source       code, config (standalone.xml) or console
 * @param declaredHash for code and config calendars, the declaration last applied
 */
public record StoredCalendar(ExclusionCalendar calendar, String source, String declaredHash) {

    public String name() {
        return calendar.name();
    }

    /** Created in the console: changed and deleted there; the watchdog's sync of declarations leaves it alone. */
    public boolean created() {
        return StoredSchedule.CONSOLE.equals(source);
    }
}
