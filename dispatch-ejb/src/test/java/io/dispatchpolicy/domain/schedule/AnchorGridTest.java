package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class AnchorGridTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void theAnchorIsTheFirstPointAndPointsAreStrictlyAfter() {
        AnchorGrid grid = new AnchorGrid(at("2025-01-01T00:00:00Z"), 15, ScheduleUnit.MINUTES, UTC);
        assertThat(grid.firstAfter(at("2024-06-01T00:00:00Z"))).isEqualTo(at("2025-01-01T00:00:00Z"));
        assertThat(grid.firstAfter(at("2025-01-01T00:00:00Z").minusNanos(1))).isEqualTo(at("2025-01-01T00:00:00Z"));
        assertThat(grid.firstAfter(at("2025-01-01T00:00:00Z"))).isEqualTo(at("2025-01-01T00:15:00Z"));
        assertThat(grid.firstAfter(at("2025-01-01T00:14:59.999999999Z"))).isEqualTo(at("2025-01-01T00:15:00Z"));
    }

    @Test
    void elapsedUnitsAreComputedDirectlyFarFromTheAnchor() {
        AnchorGrid grid = new AnchorGrid(at("2025-01-01T00:00:00Z"), 15, ScheduleUnit.MINUTES, UTC);
        assertThat(grid.firstAfter(at("2035-06-01T00:07:30Z"))).isEqualTo(at("2035-06-01T00:15:00Z"));
        AnchorGrid seconds = new AnchorGrid(at("2025-01-01T00:00:00Z"), 7, ScheduleUnit.SECONDS, UTC);
        assertThat(seconds.firstAfter(at("2025-01-01T00:01:00Z"))).isEqualTo(at("2025-01-01T00:01:03Z"));
    }

    @Test
    void hoursStepOnTheInstantLineThroughDstChanges() {
        AnchorGrid grid = new AnchorGrid(at("2025-03-29T23:00:00Z"), 1, ScheduleUnit.HOURS, BERLIN);
        assertThat(grid.nextRunTimes(at("2025-03-29T23:00:00Z"), 3))
                .containsExactly(at("2025-03-30T00:00:00Z"), at("2025-03-30T01:00:00Z"), at("2025-03-30T02:00:00Z"));
        assertThat(grid.nextRunTimes(at("2025-10-25T23:00:00Z"), 3))
                .containsExactly(at("2025-10-26T00:00:00Z"), at("2025-10-26T01:00:00Z"), at("2025-10-26T02:00:00Z"));
    }

    @Test
    void monthlyFromTheThirtyFirstClampsWithoutDrift() {
        Instant anchor = at("2025-01-31T09:00:00Z");
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.MONTHS, UTC);
        assertThat(grid.nextRunTimes(anchor.minusSeconds(1), 5)).containsExactly(
                at("2025-01-31T09:00:00Z"), at("2025-02-28T09:00:00Z"), at("2025-03-31T09:00:00Z"),
                at("2025-04-30T09:00:00Z"), at("2025-05-31T09:00:00Z"));
    }

    @Test
    void monthlyInALeapYearRunsOnTheTwentyNinth() {
        Instant anchor = at("2024-01-31T09:00:00Z");
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.MONTHS, UTC);
        assertThat(grid.nextRunTimes(anchor, 2)).containsExactly(at("2024-02-29T09:00:00Z"), at("2024-03-31T09:00:00Z"));
    }

    @Test
    void yearlyFromFebruaryTheTwentyNinthRunsOnTheTwentyEighthInCommonYears() {
        Instant anchor = at("2024-02-29T09:00:00Z");
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.YEARS, UTC);
        assertThat(grid.nextRunTimes(anchor, 4)).containsExactly(
                at("2025-02-28T09:00:00Z"), at("2026-02-28T09:00:00Z"), at("2027-02-28T09:00:00Z"),
                at("2028-02-29T09:00:00Z"));
    }

    @Test
    void dailyAtHalfPastTwoInBerlinAcrossBothDstChanges() {
        Instant anchor = LocalTimes.resolve(LocalDateTime.parse("2025-01-01T02:30"), BERLIN);
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.DAYS, BERLIN);
        assertThat(grid.nextRunTimes(at("2025-03-28T12:00:00Z"), 3)).containsExactly(
                at("2025-03-29T01:30:00Z"), at("2025-03-30T01:00:00Z"), at("2025-03-31T00:30:00Z"));
        assertThat(grid.nextRunTimes(at("2025-10-24T12:00:00Z"), 3)).containsExactly(
                at("2025-10-25T00:30:00Z"), at("2025-10-26T00:30:00Z"), at("2025-10-27T01:30:00Z"));
        // the repeated 02:30 runs once: from either pass of the overlap the next run is the next day
        assertThat(grid.firstAfter(at("2025-10-26T00:30:00Z"))).isEqualTo(at("2025-10-27T01:30:00Z"));
        assertThat(grid.firstAfter(at("2025-10-26T01:15:00Z"))).isEqualTo(at("2025-10-27T01:30:00Z"));
    }

    @Test
    void anAnchorInTheSecondPassOfAnOverlapIsStillTheFirstPoint() {
        // 02:30 CET, the repeated half hour; later days run at 02:30 local as usual
        Instant anchor = at("2025-10-26T01:30:00Z");
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.DAYS, BERLIN);
        assertThat(grid.nextRunTimes(anchor.minusSeconds(7_200), 2))
                .containsExactly(anchor, at("2025-10-27T01:30:00Z"));
    }

    @Test
    void everyOtherWeekKeepsItsLocalTimeInNewYork() {
        Instant anchor = LocalTimes.resolve(LocalDateTime.parse("2025-03-03T09:00"), NEW_YORK);
        assertThat(anchor).isEqualTo(at("2025-03-03T14:00:00Z"));
        AnchorGrid grid = new AnchorGrid(anchor, 2, ScheduleUnit.WEEKS, NEW_YORK);
        assertThat(grid.nextRunTimes(anchor, 2)).containsExactly(at("2025-03-17T13:00:00Z"), at("2025-03-31T13:00:00Z"));
    }

    @Test
    void wallClockPointsStrictlyIncreaseForYears() {
        Instant anchor = LocalTimes.resolve(LocalDateTime.parse("2020-01-01T02:30"), BERLIN);
        AnchorGrid grid = new AnchorGrid(anchor, 1, ScheduleUnit.DAYS, BERLIN);
        List<Instant> runs = grid.nextRunTimes(anchor.minusSeconds(1), 3_653);
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i)).isAfter(runs.get(i - 1));
            assertThat(Duration.between(runs.get(i - 1), runs.get(i))).isBetween(Duration.ofHours(22), Duration.ofHours(26));
        }
        assertThat(runs.get(runs.size() - 1)).isEqualTo(LocalTimes.resolve(LocalDateTime.parse("2029-12-31T02:30"), BERLIN));
    }

    private record Case(LocalDateTime anchor, int interval, ScheduleUnit unit, ZoneId zone) {
    }

    @Test
    void theEstimatedPointIsTheOneAWalkFromTheAnchorFinds() {
        Random random = new Random(7);
        List<Case> cases = List.of(
                new Case(LocalDateTime.parse("2024-01-31T02:30"), 1, ScheduleUnit.MONTHS, BERLIN),
                new Case(LocalDateTime.parse("2024-01-31T02:30"), 3, ScheduleUnit.MONTHS, NEW_YORK),
                new Case(LocalDateTime.parse("2024-02-29T01:30"), 1, ScheduleUnit.YEARS, NEW_YORK),
                new Case(LocalDateTime.parse("2024-03-09T02:30"), 1, ScheduleUnit.DAYS, NEW_YORK),
                new Case(LocalDateTime.parse("2024-03-24T02:15"), 1, ScheduleUnit.WEEKS, BERLIN),
                new Case(LocalDateTime.parse("2024-05-05T10:00"), 5, ScheduleUnit.DAYS, ZoneOffset.UTC));
        for (Case c : cases) {
            Instant anchor = LocalTimes.resolve(c.anchor(), c.zone());
            AnchorGrid grid = new AnchorGrid(anchor, c.interval(), c.unit(), c.zone());
            for (int i = 0; i < 300; i++) {
                Instant t = anchor.minus(Duration.ofDays(30)).plusSeconds(random.nextInt(6 * 366 * 86_400));
                assertThat(grid.firstAfter(t)).as("%s after %s", c, t).isEqualTo(walk(c, t));
            }
        }
    }

    /** The first point after t found by walking every point from the anchor: what the O(1) estimate must match. */
    private static Instant walk(Case c, Instant t) {
        for (long n = 0; ; n++) {
            Instant point = LocalTimes.resolve(c.anchor().plus(n * c.interval(), c.unit().chronoUnit()), c.zone());
            if (point.isAfter(t)) {
                return point;
            }
        }
    }
}
