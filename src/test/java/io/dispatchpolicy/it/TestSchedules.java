package io.dispatchpolicy.it;

import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Instant;

/** Schedules declared in code, as an application declares them (ScheduleIT). */
@ApplicationScoped
public class TestSchedules {

    /**
     * Hourly, on the ungoverned job it-scheduled (its own, so tests counting it-open see none of it): through the
     * pass-through policy. Anchored in 2100, so its occurrence is staged but never due while tests run: one due
     * at the top of an hour joined whatever test was iterating then, and broke its exact count.
     */
    @Produces
    Schedule declared() {
        return Schedule.named("it-declared").job("it-scheduled").parameter("tenant", "declared")
                .every(1, ScheduleUnit.HOURS).from(Instant.parse("2100-01-01T00:00:00Z"))
                .build();
    }

    /** A calendar declared in code (CalendarsIT): weekends and 25 December, in Paris. */
    @Produces
    io.dispatchpolicy.spi.Calendar weekends() {
        return io.dispatchpolicy.spi.Calendar.named("it-code-weekends").zone("Europe/Paris")
                .days(java.time.DayOfWeek.SATURDAY, java.time.DayOfWeek.SUNDAY).yearly(java.time.MonthDay.of(12, 25)).build();
    }
}
