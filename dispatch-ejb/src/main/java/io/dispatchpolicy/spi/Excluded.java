package io.dispatchpolicy.spi;

/**
 * What a schedule does with a run time its calendar excludes (ADR 0053): {@link #SKIP} it — the next allowed run time
 * of the schedule's grid runs instead — or {@link #MOVE} it to the first allowed time after it: the same time of day on
 * the next allowed day (the "following business day" of billing), or the end of an excluded window.
 */
public enum Excluded {
    SKIP, MOVE;

    /** The name as standalone.xml, the console and the API write it: {@code skip} or {@code move}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** @throws ScheduleDeclarationException for anything but skip or move (any case) */
    public static Excluded parse(String schedule, String text) {
        String t = text == null ? "" : text.strip();
        for (Excluded e : values()) {
            if (e.name().equalsIgnoreCase(t)) {
                return e;
            }
        }
        throw new ScheduleDeclarationException("Schedule '" + schedule + "': excluded must be skip or move (was '" + text + "')");
    }
}
