package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Calendar exclusions on a schedule's grid (issue 39, deliverable 4): exact instants over a simulated month, DST included. */
class ExcludingGridTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    private static ExclusionCalendar weekdays() {
        return new ExclusionCalendar("weekdays", PARIS, Set.of(), Set.of(), EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), List.of());
    }

    private static List<Instant> runs(Grid grid, Instant from, Instant until) {
        List<Instant> runs = new ArrayList<>();
        for (Instant t = grid.firstAfter(from); t.isBefore(until); t = grid.firstAfter(t)) {
            runs.add(t);
        }
        return runs;
    }

    @Test
    void aDailyNineOClockScheduleUnderAWeekdaysCalendarRunsOnWeekdaysOnlyAcrossTheSpringForward() {
        // 09:00 Paris daily; March 2027: the 1st is a Monday, summer time begins on Sunday the 28th
        Grid daily = new AnchorGrid(Instant.parse("2027-01-01T08:00:00Z"), 1, ScheduleUnit.DAYS, PARIS);
        for (ExcludingGrid.Mode mode : ExcludingGrid.Mode.values()) {
            List<Instant> march = runs(new ExcludingGrid(daily, weekdays(), mode), Instant.parse("2027-02-28T23:00:00Z"),
                    Instant.parse("2027-03-31T22:00:00Z"));
            assertThat(march).as(mode.name()).hasSize(23);
            assertThat(march.subList(0, 6)).as(mode.name()).containsExactly(Instant.parse("2027-03-01T08:00:00Z"),
                    Instant.parse("2027-03-02T08:00:00Z"), Instant.parse("2027-03-03T08:00:00Z"), Instant.parse("2027-03-04T08:00:00Z"),
                    Instant.parse("2027-03-05T08:00:00Z"), Instant.parse("2027-03-08T08:00:00Z"));
            // the Friday before the change at 09:00 CET, the Monday after at 09:00 CEST
            assertThat(march.subList(19, 23)).as(mode.name()).containsExactly(Instant.parse("2027-03-26T08:00:00Z"),
                    Instant.parse("2027-03-29T07:00:00Z"), Instant.parse("2027-03-30T07:00:00Z"), Instant.parse("2027-03-31T07:00:00Z"));
            assertThat(march).allSatisfy(t -> {
                assertThat(t.atZone(PARIS).getDayOfWeek()).isNotIn(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
                assertThat(t.atZone(PARIS).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
            });
        }
    }

    @Test
    void aMonthlyRunOnAHolidayIsSkippedOrMovedToTheNextAllowedDayAtItsTime() {
        ExclusionCalendar holidays = new ExclusionCalendar("bank", PARIS, Set.of(LocalDate.of(2027, 5, 1)), Set.of(MonthDay.of(1, 1)),
                EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), List.of());
        // billing on the 1st at 06:00 Paris; 1 January is a yearly holiday, 1 May 2027 a Saturday and a holiday
        Grid monthly = new AnchorGrid(Instant.parse("2026-12-01T05:00:00Z"), 1, ScheduleUnit.MONTHS, PARIS);
        Instant from = Instant.parse("2026-12-15T00:00:00Z");
        Instant until = Instant.parse("2027-06-15T00:00:00Z");
        assertThat(runs(new ExcludingGrid(monthly, holidays, ExcludingGrid.Mode.SKIP), from, until)).containsExactly(
                Instant.parse("2027-02-01T05:00:00Z"), Instant.parse("2027-03-01T05:00:00Z"), Instant.parse("2027-04-01T04:00:00Z"),
                Instant.parse("2027-06-01T04:00:00Z"));
        // moved: 1 Jan (Fri, holiday) to Mon 4 Jan; 1 May (Sat, holiday) to Mon 3 May; 1 April is a Thursday
        assertThat(runs(new ExcludingGrid(monthly, holidays, ExcludingGrid.Mode.MOVE), from, until)).containsExactly(
                Instant.parse("2027-01-04T05:00:00Z"), Instant.parse("2027-02-01T05:00:00Z"), Instant.parse("2027-03-01T05:00:00Z"),
                Instant.parse("2027-04-01T04:00:00Z"), Instant.parse("2027-05-03T04:00:00Z"), Instant.parse("2027-06-01T04:00:00Z"));
    }

    @Test
    void aWindowSkipsTheRunsInsideItOrMovesThemToItsEndOnce() {
        ExclusionCalendar nights = new ExclusionCalendar("maintenance", PARIS, Set.of(), Set.of(), Set.of(),
                List.of(new ExclusionCalendar.Window(DayOfWeek.MONDAY, LocalTime.of(0, 0), LocalTime.of(6, 0))));
        // hourly at :00 Paris, Monday 5 April 2027 (summer time: Paris = UTC+2)
        Grid hourly = new AnchorGrid(Instant.parse("2027-01-01T00:00:00Z"), 1, ScheduleUnit.HOURS, PARIS);
        Instant from = Instant.parse("2027-04-04T20:30:00Z"); // Sunday 22:30 Paris
        Instant until = Instant.parse("2027-04-05T06:00:00Z"); // Monday 08:00 Paris
        assertThat(runs(new ExcludingGrid(hourly, nights, ExcludingGrid.Mode.SKIP), from, until)).containsExactly(
                Instant.parse("2027-04-04T21:00:00Z"), Instant.parse("2027-04-05T04:00:00Z"), Instant.parse("2027-04-05T05:00:00Z"));
        // moved: midnight's run goes to 06:00 and absorbs 01:00-05:00; the 06:00 point itself is not run a second time
        assertThat(runs(new ExcludingGrid(hourly, nights, ExcludingGrid.Mode.MOVE), from, until)).containsExactly(
                Instant.parse("2027-04-04T21:00:00Z"), Instant.parse("2027-04-05T04:00:00Z"), Instant.parse("2027-04-05T05:00:00Z"));
    }

    @Test
    void aCalendarThatExcludesEveryRunTimeIsFoundAtOnce() {
        ExclusionCalendar never = new ExclusionCalendar("never", PARIS, Set.of(), Set.of(), EnumSet.allOf(DayOfWeek.class), List.of());
        Grid everySecond = new AnchorGrid(Instant.parse("2027-01-01T00:00:00Z"), 1, ScheduleUnit.SECONDS, PARIS);
        for (ExcludingGrid.Mode mode : ExcludingGrid.Mode.values()) {
            assertThatThrownBy(() -> new ExcludingGrid(everySecond, never, mode).firstAfter(Instant.parse("2027-01-01T00:00:00Z")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("calendar 'never' excludes every run time");
        }
        assertThatThrownBy(() -> new ExclusionCalendar.Window(DayOfWeek.MONDAY, LocalTime.of(6, 0), LocalTime.of(5, 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends after it starts");
    }
}
