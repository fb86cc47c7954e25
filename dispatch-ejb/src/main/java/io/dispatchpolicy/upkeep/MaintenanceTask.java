package io.dispatchpolicy.upkeep;

import java.util.Objects;

/**
 * One of a node's maintenance tasks: what it is called in the log, how often it runs, when it first
 * runs after boot, and whether it runs at once when the database answers again after an outage.
 *
 * @param name         as the log names it when it fails ("recovery failed; it runs again …")
 * @param intervalMs   from the start of one run to the start of the next, at least 1
 * @param firstAfterMs from boot to the first run (0: at once)
 * @param repairs      runs at once when the node comes back — the database returns, the server resumes —
 *                     (heartbeat, recovery) rather than at its next interval
 * @param work         one run; an exception is logged and the task runs again at its next interval
 */
public record MaintenanceTask(String name, long intervalMs, long firstAfterMs, boolean repairs, Runnable work) {

    public MaintenanceTask {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(work, "work");
        if (intervalMs < 1) {
            throw new IllegalArgumentException(name + ": interval must be >= 1 ms, was " + intervalMs);
        }
        if (firstAfterMs < 0) {
            throw new IllegalArgumentException(name + ": first run must not be before boot, was " + firstAfterMs);
        }
    }

    /** A task whose first run comes one interval after boot. */
    public static MaintenanceTask every(String name, long intervalMs, Runnable work) {
        return new MaintenanceTask(name, intervalMs, intervalMs, false, work);
    }

    /** Runs {@code batch} until it says there is nothing more to do now (a batch that did less than it could). */
    public static Runnable untilDone(java.util.function.BooleanSupplier batch) {
        return () -> {
            while (batch.getAsBoolean()) {
                // a full batch: there may be more
            }
        };
    }
}
