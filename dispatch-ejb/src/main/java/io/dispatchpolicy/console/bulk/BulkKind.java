package io.dispatchpolicy.console.bulk;

/** What a bulk action does to each job its filter matches, and which jobs those can be. */
public enum BulkKind {
    /** staged jobs (waiting, scheduled, parked; not a schedule's occurrence) deleted, kept as DISCARDED */
    DISCARD("staged", "discard staged jobs"),
    /** staged jobs ended as EXPIRED, as a missed deadline ends them: never run */
    EXPIRE("staged", "expire staged jobs"),
    /** running jobs asked to stop, wherever they run */
    STOP("running", "stop running jobs"),
    /** jobs whose latest execution FAILED or was STOPPED restarted through their policy */
    RESTART("failed or stopped", "restart failed jobs"),
    /** dead jobs staged again through their policy */
    RETRY("dead", "retry dead jobs");

    private final String matches;
    private final String verb;

    BulkKind(String matches, String verb) {
        this.matches = matches;
        this.verb = verb;
    }

    /** The jobs it can act on, in words ("staged"). */
    public String matches() {
        return matches;
    }

    /** What it does, in words ("discard staged jobs"). */
    public String verb() {
        return verb;
    }

    /** The kind named {@code text} (any case), or an {@link IllegalArgumentException} listing the kinds. */
    public static BulkKind parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a bulk action: one of " + java.util.Arrays.toString(values()));
        }
    }
}
