package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.Calendar;
import io.dispatchpolicy.spi.Excluded;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import org.junit.jupiter.api.Test;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Calendars as code, standalone.xml and the console declare them (ADR 0053): one model, one text form, clear refusals. */
class CalendarDeclarationTest {

    private static final Map<String, String> TEXT = Map.of("zone", "Europe/Paris", "dates", "2027-03-29", "yearly", "12-25, 01-01",
            "days", "sun, SATURDAY", "windows", "MONDAY 22:00-24:00");

    @Test
    void codeAndTextDeclareTheSameCalendarInOneCanonicalForm() {
        ExclusionCalendar fromText = ExclusionCalendar.parse("fr", TEXT);
        ExclusionCalendar fromCode = ExclusionCalendar.of(Calendar.named("fr").zone("Europe/Paris").dates(LocalDate.of(2027, 3, 29))
                .yearly(MonthDay.of(1, 1), MonthDay.of(12, 25)).days(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY)
                .window(DayOfWeek.MONDAY, LocalTime.of(22, 0), LocalTime.MIDNIGHT).build());
        assertThat(fromText.text()).isEqualTo(fromCode.text()).containsExactly(
                Map.entry("zone", "Europe/Paris"), Map.entry("dates", "2027-03-29"), Map.entry("yearly", "01-01, 12-25"),
                Map.entry("days", "SATURDAY, SUNDAY"), Map.entry("windows", "MONDAY 22:00-24:00"));
        assertThat(ExclusionCalendar.parse("fr", fromText.text()).text()).as("the text form reads back as itself").isEqualTo(fromText.text());
        assertThat(fromText.excludes(java.time.Instant.parse("2027-03-29T07:00:00Z"))).as("Easter Monday 2027").isTrue();
        assertThat(ExclusionCalendar.parse("empty", Map.of()).zone()).isEqualTo(ZoneId.of("UTC"));
    }

    @Test
    void eachMistakeIsRefusedNamingTheCalendarTheFieldAndTheValue() {
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("dates", "2027-02-30")))
                .isInstanceOf(ScheduleDeclarationException.class).hasMessage("Calendar 'c': dates: '2027-02-30' is not a date like 2027-05-01");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("yearly", "13-01")))
                .hasMessage("Calendar 'c': yearly: '13-01' is not a month and day like 12-25");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("days", "weekend")))
                .hasMessage("Calendar 'c': days: 'weekend' is not a weekday like SATURDAY or SAT");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("windows", "MONDAY 22:00")))
                .hasMessage("Calendar 'c': windows: 'MONDAY 22:00' is not a weekday and two times like MONDAY 22:00-24:00");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("windows", "MONDAY 22:00-21:00")))
                .hasMessageStartingWith("Calendar 'c': windows: MONDAY 22:00-21:00 does not end after it starts");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("zone", "Mars/Base")))
                .hasMessageStartingWith("Calendar 'c': zone 'Mars/Base' is not a known region id");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("zone", "+02:00")))
                .hasMessageStartingWith("Calendar 'c': zone '+02:00' is a fixed offset");
        assertThatThrownBy(() -> ExclusionCalendar.parse("c", Map.of("holidays", "x")))
                .hasMessageStartingWith("Calendar 'c': has no field 'holidays'");
        assertThatThrownBy(() -> ExclusionCalendar.parse("bad name", Map.of())).hasMessageStartingWith("Calendar 'bad name': name is invalid");
        assertThatThrownBy(() -> Calendar.named("c").window(DayOfWeek.FRIDAY, LocalTime.NOON, LocalTime.NOON).build())
                .hasMessageStartingWith("Calendar 'c': windows: FRIDAY 12:00-12:00 does not end after it starts");
    }

    @Test
    void aScheduleNamesACalendarAndSaysWhatBecomesOfAnExcludedRun() {
        ScheduleDefinition daily = new ScheduleDefinition("billing", "invoice", Map.of(), null, null, null, "0 9 * * *",
                ZoneId.of("Europe/Paris"), null, null, false, true);
        ScheduleDefinition skipping = daily.excluding("fr", null).validate();
        assertThat(skipping.excluded()).as("skip by default").isEqualTo(Excluded.SKIP);
        assertThat(skipping.snapshot()).containsEntry("calendar", "fr").containsEntry("excluded", "skip");
        assertThat(daily.differsInOccurrence(skipping)).isTrue();
        assertThat(skipping.differsInOccurrence(daily.excluding("fr", Excluded.MOVE))).isTrue();
        assertThat(ScheduleDefinition.of(skipping.toSchedule())).isEqualTo(skipping);
        Grid grid = skipping.grid(ExclusionCalendar.parse("fr", TEXT));
        assertThat(grid.firstAfter(java.time.Instant.parse("2027-03-26T09:00:00Z")))
                .as("Friday 26 March 2027, 10:00 Paris: the next allowed 09:00 is Tuesday 30th (weekend, then Easter Monday)")
                .isEqualTo(java.time.Instant.parse("2027-03-30T07:00:00Z"));
        assertThatThrownBy(() -> daily.excluding(null, Excluded.MOVE).validate())
                .hasMessageStartingWith("Schedule 'billing': excluded (move) needs a calendar");
        assertThatThrownBy(() -> Excluded.parse("billing", "later"))
                .hasMessage("Schedule 'billing': excluded must be skip or move (was 'later')");
        assertThat(new ScheduleDeclarationException("Schedule 'billing': calendar 'x' is not declared").field()).isEqualTo("calendar");
    }
}
