// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.spi.Calendar;
import io.dispatchpolicy.spi.Excluded;
import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.MonthDay;

@ApplicationScoped
public class Schedules {

    @Inject
    DispatchSchedules schedules;

    // tag::declare[]
    @Produces
    Schedule nightly() {                       // in code, like a Policy
        return Schedule.named("nightly").job("report").parameter("scope", "all")
                .every(1, ScheduleUnit.DAYS).from(LocalDateTime.of(2025, 1, 1, 2, 30))
                .zone("Europe/Berlin")
                .build();
    }

    @Produces
    Schedule weekdays() {
        return Schedule.named("weekdays").job("digest").cron("0 8 * * MON-FRI").zone("America/New_York")
                .catchUp().build();
    }

    @Produces
    Calendar bankHolidays() {                  // times schedules naming it do not run at
        return Calendar.named("fr-bank-holidays").zone("Europe/Paris")
                .yearly(MonthDay.of(1, 1), MonthDay.of(5, 1), MonthDay.of(12, 25))
                .days(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY)
                .build();
    }

    @Produces
    Schedule billing() {                       // a holiday's run moves to the next business day, same time
        return Schedule.named("billing").job("invoice").cron("0 6 1 * *").zone("Europe/Paris")
                .excluding("fr-bank-holidays", Excluded.MOVE).build();
    }

    @Produces
    Schedule inboxPoll() {                     // ten minutes after the last run ended, never two at once
        return Schedule.named("inbox-poll").job("poll-inbox").afterEnd(Duration.ofMinutes(10)).build();
    }
    // end::declare[]

    // tag::control[]
    void control() {
        schedules.nextRunTimes("nightly", Instant.now(), 5);
        schedules.start("nightly");          // idempotent: stages the future occurrence now, not at the next watchdog pass
        schedules.disable("nightly");        // schedules.enable(...), skipNext(...), runNow(...)
    }
    // end::control[]

    // tag::api[]
    void signedUp(String tenant) {             // one schedule per tenant, from code at run time
        schedules.create(Schedule.named("billing-" + tenant).job("invoice").parameter("tenant", tenant)
                .cron("0 6 1 * *").zone("Europe/Berlin").build());   // false when it exists already
    }

    void churned(String tenant) {
        schedules.delete("billing-" + tenant);   // its future occurrence goes too; its history stays
    }
    // end::api[]
}
// end::all[]
