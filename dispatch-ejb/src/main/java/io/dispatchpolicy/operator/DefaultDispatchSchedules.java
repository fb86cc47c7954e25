package io.dispatchpolicy.operator;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.ConsoleRole;

import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Schedules for application code: the operator actions, audited as done by "application" — the deployment's
 * own code, trusted as an admin.
 */
@ApplicationScoped
public class DefaultDispatchSchedules implements DispatchSchedules {

    static final Actor USER = Actor.of("application", ConsoleRole.ADMIN);

    @Inject
    ScheduleControl control;

    @Override
    public List<Instant> nextRunTimes(String schedule, Instant after, int n) {
        return known(() -> control.nextRunTimes(schedule, after, n));
    }

    @Override
    public boolean start(String schedule) {
        return known(() -> control.start(schedule));
    }

    @Override
    public boolean enable(String schedule) {
        return known(() -> control.enable(schedule, USER));
    }

    @Override
    public boolean disable(String schedule) {
        return known(() -> control.disable(schedule, USER));
    }

    @Override
    public Optional<Instant> skipNext(String schedule) {
        return known(() -> control.skipNext(schedule, USER));
    }

    @Override
    public long runNow(String schedule) {
        return known(() -> control.runNow(schedule, USER));
    }

    /** The API's contract: an unknown schedule or a refused action is an IllegalArgumentException. */
    private static <T> T known(Supplier<T> action) {
        try {
            return action.get();
        } catch (ScheduleActionRefused e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
