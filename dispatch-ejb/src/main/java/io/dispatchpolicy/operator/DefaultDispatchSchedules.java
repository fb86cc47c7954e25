package io.dispatchpolicy.operator;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;

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
    public boolean create(io.dispatchpolicy.spi.Schedule schedule) {
        java.util.Objects.requireNonNull(schedule, "schedule");
        return known(() -> control.create(ScheduleDefinition.of(schedule), StoredSchedule.API, USER));
    }

    @Override
    public void update(io.dispatchpolicy.spi.Schedule schedule) {
        java.util.Objects.requireNonNull(schedule, "schedule");
        known(() -> {
            control.edit(schedule.name(), ScheduleDefinition.of(schedule), StoredSchedule.API, USER);
            return null;
        });
    }

    @Override
    public boolean delete(String schedule) {
        return known(() -> {
            try {
                control.delete(schedule, StoredSchedule.API, USER);
                return true;
            } catch (ScheduleActionRefused e) {
                if (control.schedule(schedule).isEmpty()) {
                    return false; // deleting what is not there (twice, or never created) changes nothing
                }
                throw e;
            }
        });
    }

    @Override
    public List<io.dispatchpolicy.spi.Schedule> list(String prefix) {
        return control.definitions(prefix == null ? "" : prefix).stream().map(ScheduleDefinition::toSchedule).toList();
    }

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

    /**
     * The API's contract: an unknown schedule, a refused action or a definition its policy would refuse is an
     * IllegalArgumentException.
     */
    private static <T> T known(Supplier<T> action) {
        try {
            return action.get();
        } catch (ScheduleActionRefused | io.dispatchpolicy.spi.ScheduleDeclarationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
