package io.dispatchpolicy.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Recurring schedules from application code (the guide, "Recurring schedules"). Inject it with
 * {@code @Inject DispatchSchedules schedules;}. Schedules are declared as CDI producers of
 * {@link io.dispatchpolicy.spi.Schedule}, in standalone.xml, or in the console, or created here at run time
 * ({@link #create}: one per tenant at sign-up, deleted at churn). Every method naming an unknown schedule throws
 * {@link IllegalArgumentException}.
 */
public interface DispatchSchedules {

    /**
     * Creates a schedule (source {@code api}), checked as every other source's — its policy (the pass-through one for
     * a job no policy governs) must accept its parameters, priority and lane — and stages its first future occurrence when enabled. Idempotent by name: a
     * schedule this API created under that name is left as it is ({@link #update} changes it).
     *
     * @return true when created, false when it existed
     * @throws IllegalArgumentException when refused (the name is declared in code, standalone.xml or the console;
     *                                  its policy would refuse its occurrences), saying why
     */
    boolean create(io.dispatchpolicy.spi.Schedule schedule);

    /**
     * Replaces the definition of a schedule this API created: its future occurrence is superseded and the next one
     * staged on the new definition; its history stays.
     *
     * @throws IllegalArgumentException when there is none of that name, or it was not created here
     */
    void update(io.dispatchpolicy.spi.Schedule schedule);

    /**
     * Deletes a schedule this API created and its future occurrence; past and running executions stay.
     *
     * @return true when deleted, false when there was none of that name
     * @throws IllegalArgumentException when it was not created here (declared in code, standalone.xml or the console)
     */
    boolean delete(String schedule);

    /** Every schedule whose name starts with {@code prefix}, whatever created it, by name, as currently defined. */
    List<io.dispatchpolicy.spi.Schedule> list(String prefix);

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
