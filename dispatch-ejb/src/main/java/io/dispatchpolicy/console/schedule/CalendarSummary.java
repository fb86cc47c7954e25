package io.dispatchpolicy.console.schedule;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * A calendar as the console shows it (ADR 0053).
 *
 * @param source  code, config or console (only a console calendar is changed there)
 * @param fields  its text fields: zone, dates, yearly, days, windows
 * @param usedBy  the schedules naming it
 */
public record CalendarSummary(String name, String source, Map<String, String> fields, List<String> usedBy) implements Serializable {

    public CalendarSummary {
        fields = Map.copyOf(fields);
        usedBy = List.copyOf(usedBy);
    }

    /** Whether the console changes it (created there). */
    public boolean editable() {
        return io.dispatchpolicy.domain.schedule.StoredSchedule.CONSOLE.equals(source);
    }
}
