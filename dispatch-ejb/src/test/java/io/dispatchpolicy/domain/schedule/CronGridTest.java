package io.dispatchpolicy.domain.schedule;

import jakarta.enterprise.concurrent.CronTrigger;
import org.junit.jupiter.api.Test;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CronGridTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void dailyAtHalfPastTwoInBerlinAcrossBothDstChanges() {
        CronGrid grid = new CronGrid("30 2 * * *", BERLIN);
        assertThat(grid.nextRunTimes(at("2025-03-28T12:00:00Z"), 3)).containsExactly(
                at("2025-03-29T01:30:00Z"), at("2025-03-30T01:00:00Z"), at("2025-03-31T00:30:00Z"));
        assertThat(grid.nextRunTimes(at("2025-10-24T12:00:00Z"), 3)).containsExactly(
                at("2025-10-25T00:30:00Z"), at("2025-10-26T00:30:00Z"), at("2025-10-27T01:30:00Z"));
        // once: from the second pass of the overlap the next run is the next day
        assertThat(grid.firstAfter(at("2025-10-26T01:15:00Z"))).isEqualTo(at("2025-10-27T01:30:00Z"));
    }

    @Test
    void weekdayMorningsInNewYorkAcrossTheStartOfDst() {
        CronGrid grid = new CronGrid("0 8 * * MON-FRI", NEW_YORK);
        Instant after = ZonedDateTime.parse("2025-03-06T12:00-05:00").toInstant();
        assertThat(grid.nextRunTimes(after, 5)).containsExactly(
                at("2025-03-07T13:00:00Z"), at("2025-03-10T12:00:00Z"), at("2025-03-11T12:00:00Z"),
                at("2025-03-12T12:00:00Z"), at("2025-03-13T12:00:00Z"));
    }

    @Test
    void denseMatchesInAGapCollapseIntoItsEnd() {
        // 02:00 to 02:45 do not exist on 2025-03-30 in Berlin; they and 03:00 CEST are all 01:00Z, run once
        CronGrid grid = new CronGrid("*/15 * * * *", BERLIN);
        assertThat(grid.nextRunTimes(at("2025-03-30T00:40:00Z"), 3))
                .containsExactly(at("2025-03-30T00:45:00Z"), at("2025-03-30T01:00:00Z"), at("2025-03-30T01:15:00Z"));
    }

    @Test
    void theRepeatedHourRunsOnceAtTheEarlierOffset() {
        CronGrid grid = new CronGrid("*/15 * * * *", BERLIN);
        // 02:45 CEST, then 03:00 CET: the local times 02:00 to 02:45 ran in the first pass
        assertThat(grid.nextRunTimes(at("2025-10-26T00:40:00Z"), 3))
                .containsExactly(at("2025-10-26T00:45:00Z"), at("2025-10-26T02:00:00Z"), at("2025-10-26T02:15:00Z"));
        // from inside the second pass (02:05 CET) straight to its end
        assertThat(grid.firstAfter(at("2025-10-26T01:05:00Z"))).isEqualTo(at("2025-10-26T02:00:00Z"));
    }

    @Test
    void theNextRunIsStrictlyAfterEvenWithinASecond() {
        CronGrid grid = new CronGrid("0 8 * * *", UTC);
        assertThat(grid.firstAfter(at("2025-06-01T08:00:00Z"))).isEqualTo(at("2025-06-02T08:00:00Z"));
        assertThat(grid.firstAfter(at("2025-06-01T07:59:59.999Z"))).isEqualTo(at("2025-06-01T08:00:00Z"));
        assertThat(grid.firstAfter(at("2025-06-01T08:00:00.5Z"))).isEqualTo(at("2025-06-02T08:00:00Z"));
    }

    @Test
    void whitespaceCollapsesAndSixFieldsLeadWithSeconds() {
        assertThat(new CronGrid("  0   8 *\t* MON-FRI ", UTC).expression()).isEqualTo("0 8 * * MON-FRI");
        assertThat(new CronGrid("30 0 8 * * *", UTC).firstAfter(at("2025-06-01T00:00:00Z")))
                .isEqualTo(at("2025-06-01T08:00:30Z"));
    }

    @Test
    void malformedExpressionsAreRefused() {
        assertThatThrownBy(() -> new CronGrid("0 8 * *", UTC)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("has 4 field(s)");
        assertThatThrownBy(() -> new CronGrid("0 0 8 * * * 2025", UTC)).hasMessageStartingWith("has 7 field(s)");
        assertThatThrownBy(() -> new CronGrid("   ", UTC)).hasMessageStartingWith("has 0 field(s)");
        assertThatThrownBy(() -> new CronGrid("61 * * * *", UTC)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot be parsed");
        assertThatThrownBy(() -> new CronGrid("0 8 W * *", UTC)).hasMessageStartingWith("cannot be parsed");
    }

    @Test
    void anExpressionThatNeverMatchesHasNoNextRun() {
        CronGrid grid = new CronGrid("0 0 30 2 *", UTC);
        assertThatThrownBy(() -> grid.firstAfter(at("2025-01-01T00:00:00Z")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("matches no time");
    }

    // What the grid relies on, pinned on CronTrigger 3.0.3: a change in a newer API jar fails here first.

    @Test
    void cronTriggerIsConcurrency303NotTheCopyInJakartaeeApi10() {
        // jakartaee-api 10.0.0 bundles an older CronTrigger that throws ArrayIndexOutOfBoundsException here; the pom
        // lists concurrent-api 3.0.3 ahead of it for that reason
        assertThat(new CronTrigger("30 2 * * *", ZoneOffset.UTC)
                .getNextRunTime(null, ZonedDateTime.parse("2025-03-29T00:00:01Z")))
                .isEqualTo(ZonedDateTime.parse("2025-03-29T02:30:00Z"));
    }

    @Test
    void cronTriggerTreatsFromAsInclusive() {
        CronTrigger trigger = new CronTrigger("30 2 * * *", ZoneOffset.UTC);
        ZonedDateTime from = ZonedDateTime.parse("2025-06-01T02:30:00Z");
        assertThat(trigger.getNextRunTime(null, from)).isEqualTo(from);
    }

    @Test
    void cronTriggerInADstZoneSkipsTheGapAndRunsTheOverlapTwice() {
        CronTrigger trigger = new CronTrigger("30 2 * * *", BERLIN);
        ZonedDateTime spring = trigger.getNextRunTime(null, ZonedDateTime.of(2025, 3, 29, 2, 30, 1, 0, BERLIN));
        assertThat(spring.toInstant()).isEqualTo(at("2025-03-31T00:30:00Z"));
        ZonedDateTime first = trigger.getNextRunTime(null, ZonedDateTime.of(2025, 10, 25, 2, 30, 1, 0, BERLIN));
        ZonedDateTime second = trigger.getNextRunTime(null, first.plusSeconds(1));
        assertThat(first.toInstant()).isEqualTo(at("2025-10-26T00:30:00Z"));
        assertThat(second.toInstant()).isEqualTo(at("2025-10-26T01:30:00Z"));
    }

    @Test
    void cronTriggerRefusesAnImpossibleDateAndAndsDayOfMonthWithDayOfWeek() {
        assertThatThrownBy(() -> new CronTrigger("0 0 30 2 *", ZoneOffset.UTC)
                .getNextRunTime(null, ZonedDateTime.parse("2025-01-01T00:00:00Z")))
                .isInstanceOf(DateTimeException.class);
        // Friday the 13th, not every 13th and every Friday
        assertThat(new CronTrigger("0 0 13 * FRI", ZoneOffset.UTC)
                .getNextRunTime(null, ZonedDateTime.parse("2025-01-01T00:00:00Z")))
                .isEqualTo(ZonedDateTime.parse("2025-06-13T00:00:00Z"));
        assertThat(new CronGrid("0 0 13 * FRI", UTC).firstAfter(at("2025-01-01T00:00:00Z")))
                .isEqualTo(at("2025-06-13T00:00:00Z"));
    }

    @Test
    void cronTriggerAcceptsTheDocumentedSyntax() {
        LocalDateTime from = LocalDateTime.parse("2025-01-01T00:00");
        assertThat(firstLocal("0 8 * * FRI#L", from)).isEqualTo(LocalDateTime.parse("2025-01-31T08:00"));
        assertThat(firstLocal("0 8 * * MON#2", from)).isEqualTo(LocalDateTime.parse("2025-01-13T08:00"));
        assertThat(firstLocal("0 8 L * *", from)).isEqualTo(LocalDateTime.parse("2025-01-31T08:00"));
        assertThat(firstLocal("0 8 ? JAN 7", from)).isEqualTo(LocalDateTime.parse("2025-01-05T08:00"));
        assertThat(firstLocal("0 8 * * SUNDAY", from)).isEqualTo(LocalDateTime.parse("2025-01-05T08:00"));
    }

    private static LocalDateTime firstLocal(String cron, LocalDateTime after) {
        return LocalDateTime.ofInstant(new CronGrid(cron, UTC).firstAfter(after.toInstant(ZoneOffset.UTC)), UTC);
    }
}
