package io.dispatchpolicy.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Recurring schedules from application code (the guide, "Recurring schedules"). Inject it with
 * {@code @Inject DispatchSchedules schedules;}. Schedules themselves are declared as CDI producers of
 * {@link io.dispatchpolicy.spi.Schedule}, in standalone.xml, or in the console. Every method naming an
 * unknown schedule throws {@link IllegalArgumentException}.
 */
public interface DispatchSchedules {

    /** The next {@code n} run times of the schedule's grid strictly after {@code after} (whether enabled or not). */
    List<Instant> nextRunTimes(String schedule, Instant after, int n);

    /**
     * Stages the schedule's future occurrence now, rather than at the next watchdog pass; idempotent.
     *
     * @return true when it staged one (false: it had one already, or is disabled)
     */
    boolean start(String schedule);

    /** @return true when this staged its future occurrence */
    boolean enable(String schedule);

    /** Disables the schedule: its future occurrence is withdrawn; past and running ones are left alone. @return true when it was enabled */
    boolean disable(String schedule);

    /** Skips the next occurrence: that grid point never runs; the one after it is staged. @return the skipped time */
    Optional<Instant> skipNext(String schedule);

    /** Runs the schedule's job once now, through its policy, without moving its grid. @return the submission id */
    long runNow(String schedule);
}
