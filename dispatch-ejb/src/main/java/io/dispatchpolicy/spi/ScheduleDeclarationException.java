package io.dispatchpolicy.spi;

import jakarta.ejb.ApplicationException;

/**
 * A schedule was declared wrongly. Raised at deployment for a code or standalone.xml declaration, so the
 * mistake cannot reach production; the message names the schedule and the field ({@code Schedule 'nightly':
 * unit must be one of …}). The console's form shows it as its field's error; thrown through an engine
 * bean it rolls the transaction back and reaches the caller as it is.
 */
@ApplicationException(rollback = true)
public class ScheduleDeclarationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The declaration's fields as the messages name them first (the standalone.xml knob names). */
    private static final java.util.Set<String> FIELDS = java.util.Set.of("name", "job", "param", "parameters", "anchor", "interval",
            "unit", "cron", "zone", "priority", "lane", "catch-up", "enabled", "run-as", "deadline", "delay", "calendar", "excluded");
    private static final java.util.regex.Pattern FIRST_WORD = java.util.regex.Pattern.compile("^Schedule '[^']*': ([a-z-]+)");

    public ScheduleDeclarationException(String message) {
        super(message);
    }

    /**
     * The field the message is about — every check names it first, after the schedule ({@code Schedule 'x': unit
     * is required}): {@code parameters} for a parameter; null when the message names none.
     */
    public String field() {
        java.util.regex.Matcher m = FIRST_WORD.matcher(String.valueOf(getMessage()));
        if (!m.find() || !FIELDS.contains(m.group(1))) {
            return null;
        }
        return m.group(1).equals("param") ? "parameters" : m.group(1);
    }
}
