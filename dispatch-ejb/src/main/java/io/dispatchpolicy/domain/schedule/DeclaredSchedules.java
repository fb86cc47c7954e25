package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleCheck;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * The engine's side of {@link ScheduleCheck}: a declared schedule read and checked by the one model every
 * source of schedules uses ({@link ScheduleDefinition}). Registered in
 * {@code META-INF/services/io.dispatchpolicy.spi.ScheduleCheck}, so the spi finds it without naming it.
 */
public final class DeclaredSchedules implements ScheduleCheck {

    @Override
    public ZoneId zone(String schedule, String text) {
        return ScheduleDefinition.parseZone(schedule, text);
    }

    @Override
    public Instant anchor(String schedule, LocalDateTime local, ZoneId zone) {
        return ScheduleDefinition.anchorAt(schedule, local, zone);
    }

    @Override
    public String cron(String expression) {
        return CronGrid.normalize(expression);
    }

    @Override
    public void check(Schedule schedule) {
        ScheduleDefinition.of(schedule).validate();
    }

    @Override
    public void check(io.dispatchpolicy.spi.Calendar calendar) {
        ExclusionCalendar.of(calendar);
    }
}
