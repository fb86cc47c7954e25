package io.dispatchpolicy.it;

import io.dispatchpolicy.console.schedule.CalendarSummary;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import io.dispatchpolicy.spi.Excluded;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Calendars of excluded times through the deployed engine (issue 39, deliverable 4; ADR 0053): declared in code,
 * standalone.xml and the console, named by schedules, refused when unknown or excluding everything, and a changed
 * calendar restaging the futures of the schedules naming it.
 */
class CalendarsIT extends EngineTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Inject
    ScheduleControl control;

    @Inject
    ScheduleWatchdog watchdog;

    private final List<String> created = new ArrayList<>();

    @AfterEach
    void deleteTheTestsSchedulesAndCalendars() {
        deleteSchedules(control, created);
        db.update("DELETE FROM dispatch.calendars WHERE name LIKE 'it-cal-%'");
    }

    @Test
    void aWeekdaysCalendarFromStandaloneXmlKeepsADaily0900ScheduleOffWeekendsAcrossTheSpringForward() {
        set("dispatch.calendar.it-cal-weekdays.zone", "Europe/Paris");
        set("dispatch.calendar.it-cal-weekdays.days", "SATURDAY, SUNDAY");
        pass();
        assertThat(calendar("it-cal-weekdays").source()).isEqualTo("config");
        assertThat(calendar("it-code-weekends").source()).as("the test app's producer").isEqualTo("code");
        assertThat(calendar("it-code-weekends").fields()).containsEntry("days", "SATURDAY, SUNDAY").containsEntry("yearly", "12-25");

        create(daily("s-cal-weekdays").excluding("it-cal-weekdays", Excluded.SKIP));

        // March 2027: 23 weekdays; 09:00 Paris is 08:00Z up to Friday the 26th, 07:00Z from Monday the 29th (DST from the 28th)
        List<Instant> expected = new ArrayList<>();
        for (LocalDate day = LocalDate.of(2027, 3, 1); day.getMonthValue() == 3; day = day.plusDays(1)) {
            if (day.getDayOfWeek() != DayOfWeek.SATURDAY && day.getDayOfWeek() != DayOfWeek.SUNDAY) {
                expected.add(day.atTime(9, 0).atZone(PARIS).toInstant());
            }
        }
        assertThat(expected).hasSize(23);
        List<Instant> runs = control.nextRunTimes("s-cal-weekdays", Instant.parse("2027-02-28T23:00:00Z"), 24);
        assertThat(runs.subList(0, 23)).isEqualTo(expected);
        assertThat(runs.get(22)).isEqualTo(Instant.parse("2027-03-31T07:00:00Z"));
        assertThat(runs.get(23)).as("then Thursday 1 April").isEqualTo(Instant.parse("2027-04-01T07:00:00Z"));
        assertThat(runs).filteredOn(t -> t.atZone(PARIS).getDayOfWeek().getValue() >= 6).isEmpty();

        // the live future too is a weekday's 09:00 in Paris
        Instant future = Instant.ofEpochMilli(future("s-cal-weekdays").get(1));
        assertThat(future.atZone(PARIS).getDayOfWeek().getValue()).isLessThan(6);
        assertThat(future.atZone(PARIS).toLocalTime()).isEqualTo(java.time.LocalTime.of(9, 0));
        jakarta.json.JsonObject read = ApiCalls.json(ApiCalls.send("GET", "api/schedules/s-cal-weekdays", null, "viewer:viewer-secret", null));
        assertThat(read.getString("calendar")).isEqualTo("it-cal-weekdays");
        assertThat(read.getString("excluded")).isEqualTo("skip");
    }

    @Test
    void movedRunsKeepTheirTimeOfDayOnTheNextAllowedDay() {
        control.saveCalendar("it-cal-holidays", Map.of("zone", "Europe/Paris", "yearly", "01-01, 05-01", "days", "SAT, SUN"), Operators.ADMIN);
        // the first of each month at 06:00 Paris
        create(new ScheduleDefinition("s-cal-billing", "it-scheduled", Map.of("tenant", "s-cal-billing"), null, null, null, "0 6 1 * *",
                PARIS, null, null, false, true).excluding("it-cal-holidays", Excluded.MOVE));

        List<Instant> runs = control.nextRunTimes("s-cal-billing", Instant.parse("2026-12-15T00:00:00Z"), 6);
        assertThat(runs).containsExactly(
                Instant.parse("2027-01-04T05:00:00Z"),  // Fri 1 Jan (holiday) -> Mon 4 Jan, 06:00 CET
                Instant.parse("2027-02-01T05:00:00Z"),  // Mon 1 Feb
                Instant.parse("2027-03-01T05:00:00Z"),  // Mon 1 Mar
                Instant.parse("2027-04-01T04:00:00Z"),  // Thu 1 Apr, 06:00 CEST
                Instant.parse("2027-05-03T04:00:00Z"),  // Sat 1 May (holiday, weekend) -> Mon 3 May
                Instant.parse("2027-06-01T04:00:00Z")); // Tue 1 Jun
    }

    @Test
    void anUnknownCalendarOrOneExcludingEveryRunIsRefusedAndAChangedCalendarRestagesTheFuture() {
        assertThatThrownBy(() -> control.create(daily("s-cal-unknown").excluding("it-cal-nope", Excluded.SKIP), Operators.ADMIN))
                .hasMessageContaining("Schedule 's-cal-unknown': calendar 'it-cal-nope' is not declared");
        control.saveCalendar("it-cal-all", Map.of("days", "MON, TUE, WED, THU, FRI, SAT, SUN"), Operators.ADMIN);
        assertThatThrownBy(() -> control.create(daily("s-cal-never").excluding("it-cal-all", Excluded.MOVE), Operators.ADMIN))
                .hasMessageContaining("Schedule 's-cal-never': calendar 'it-cal-all' excludes every run time of the schedule for ten years");
        assertThat(control.schedule("s-cal-unknown")).isEmpty();
        assertThat(control.schedule("s-cal-never")).isEmpty();

        // a daily 09:00 Paris schedule whose calendar then excludes the weekday its future falls on
        control.saveCalendar("it-cal-edit", Map.of("zone", "Europe/Paris"), Operators.ADMIN);
        create(daily("s-cal-edit").excluding("it-cal-edit", Excluded.SKIP));
        List<Long> before = future("s-cal-edit");
        DayOfWeek day = Instant.ofEpochMilli(before.get(1)).atZone(PARIS).getDayOfWeek();
        control.saveCalendar("it-cal-edit", Map.of("zone", "Europe/Paris", "days", day.name()), Operators.ADMIN);

        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?", before.get(0)))
                .containsExactly("superseded calendar changed");
        List<Long> after = future("s-cal-edit");
        assertThat(after.get(1) - before.get(1)).as("the next day's 09:00 (no DST change within a day here, or an hour off)")
                .isBetween(Duration.ofHours(23).toMillis(), Duration.ofHours(25).toMillis());
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE schedule_id = (SELECT id FROM dispatch.schedules "
                + "WHERE name = 's-cal-edit')")).isEqualTo(1);

        // a change leaving the schedule no run time is refused, and the calendar stays as it was
        assertThatThrownBy(() -> control.saveCalendar("it-cal-edit", Map.of("days", "MON, TUE, WED, THU, FRI, SAT, SUN"), Operators.ADMIN))
                .hasMessageContaining("would exclude every run time for ten years of schedule(s) s-cal-edit");
        assertThat(calendar("it-cal-edit").fields()).containsEntry("days", day.name());
        // a calendar a schedule names is not deleted; one declared elsewhere is not changed here
        assertThatThrownBy(() -> control.deleteCalendar("it-cal-edit", Operators.ADMIN))
                .hasMessageContaining("is named by schedule(s) s-cal-edit");
        assertThatThrownBy(() -> control.saveCalendar("it-code-weekends", Map.of(), Operators.ADMIN))
                .hasMessageContaining("is declared in code");
        control.delete("s-cal-edit", Operators.ADMIN);
        control.deleteCalendar("it-cal-edit", Operators.ADMIN);
        assertThat(control.calendars()).extracting(CalendarSummary::name).doesNotContain("it-cal-edit");
        assertThat(db.strings("SELECT action || ' ' || outcome FROM dispatch.audit_log WHERE target = 'it-cal-edit' ORDER BY id"))
                .containsExactly("CALENDAR_SAVE done", "CALENDAR_SAVE done", "CALENDAR_SAVE failed", "CALENDAR_DELETE failed",
                        "CALENDAR_DELETE done");
    }

    // ---------------------------------------------------------------- helpers

    private static ScheduleDefinition daily(String name) {
        return new ScheduleDefinition(name, "it-scheduled", Map.of("tenant", name), null, null, null, "0 9 * * *", PARIS, null, null,
                false, true);
    }

    private void create(ScheduleDefinition d) {
        created.add(d.name());
        control.create(d, Operators.ADMIN);
    }

    private CalendarSummary calendar(String name) {
        return control.calendars().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** One watchdog pass of this test's own (the node's maintenance thread may hold the lock a moment). */
    private void pass() {
        await().atMost(Duration.ofSeconds(30)).until(() -> watchdog.pass() >= 0);
    }
}
