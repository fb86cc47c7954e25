package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ChainTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");
    private static final Duration FIFTEEN_MINUTES = Duration.ofMinutes(15);

    @Test
    void catchUpChainsEveryGridPointWithoutDriftThroughLateAdmissions() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        Random random = new Random(12);
        NextOccurrence occurrence = Chain.first(grid, null, ANCHOR.minusSeconds(1));
        int overdue = 0;
        for (int k = 0; k < 1_000; k++) {
            assertThat(occurrence.runAt()).as("run %d", k).isEqualTo(ANCHOR.plus(FIFTEEN_MINUTES.multipliedBy(k)));
            if (k == 999) {
                break;
            }
            Instant admittedAt = occurrence.runAt().plusSeconds(random.nextInt(40 * 60 + 1));
            NextOccurrence next = Chain.next(grid, occurrence.runAt(), true, admittedAt, occurrence.overdueSeq());
            assertThat(next.cut()).isEmpty();
            assertThat(next.overdue()).isEqualTo(!next.runAt().isAfter(admittedAt));
            assertThat(next.overdueSeq()).isEqualTo(next.overdue() ? Math.max(1, occurrence.overdueSeq()) + 1 : 0);
            overdue += next.overdue() ? 1 : 0;
            occurrence = next;
        }
        assertThat(occurrence.runAt()).isEqualTo(Instant.parse("2025-01-11T09:45:00Z"));
        assertThat(overdue).as("late admissions made some occurrences overdue").isPositive();
    }

    @Test
    void withoutCatchUpEachRunIsTheFirstGridPointAfterItsPredecessorsAdmission() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        Random random = new Random(12);
        Instant runAt = Chain.first(grid, null, ANCHOR.minusSeconds(1)).runAt();
        for (int k = 0; k < 1_000; k++) {
            Instant admittedAt = runAt.plusSeconds(random.nextInt(40 * 60 + 1));
            NextOccurrence next = Chain.next(grid, runAt, false, admittedAt, 0);
            assertThat(Duration.between(ANCHOR, next.runAt()).toNanos() % FIFTEEN_MINUTES.toNanos()).isZero();
            assertThat(next.runAt()).isAfter(runAt).isAfter(admittedAt)
                    .isBeforeOrEqualTo(admittedAt.plus(FIFTEEN_MINUTES));
            assertThat(next.overdueSeq()).isZero();
            assertThat(next.cut()).isEmpty();
            runAt = next.runAt();
        }
    }

    /** What catching up after an outage ran and skipped. */
    private record CatchUp(List<Instant> ran, Optional<NextOccurrence.Cut> cut, NextOccurrence resumed) {
    }

    /**
     * An outage on a 30-second grid: the occurrence at {@code live} was staged on time and is admitted only
     * when the server is back, at {@code now}; each catch-up occurrence is admitted at once (still at now).
     */
    private static CatchUp catchUpAfter(Grid grid, Instant live, Instant now) {
        List<Instant> ran = new ArrayList<>();
        NextOccurrence occurrence = new NextOccurrence(live, 0, Optional.empty());
        while (true) {
            ran.add(occurrence.runAt());
            NextOccurrence next = Chain.next(grid, occurrence.runAt(), true, now, occurrence.overdueSeq());
            if (next.cut().isPresent() || !next.overdue()) {
                return new CatchUp(ran, next.cut(), next);
            }
            assertThat(next.overdueSeq()).as("the live occurrence is the first late run").isEqualTo(ran.size() + 1);
            occurrence = next;
        }
    }

    private static final Duration HALF_MINUTE = Duration.ofSeconds(30);

    @Test
    void catchUpRunsExactlyItsLimitCountingTheOccurrenceLiveBeforeTheOutage() {
        Grid grid = new AnchorGrid(ANCHOR, 30, ScheduleUnit.SECONDS, UTC);
        // 2,880 points missed (a day): ANCHOR, the live one, and the 2,879 after it, all at or before now
        Instant now = ANCHOR.plus(HALF_MINUTE.multipliedBy(2_879)).plusSeconds(10);
        CatchUp c = catchUpAfter(grid, ANCHOR, now);
        assertThat(c.ran()).hasSize(Chain.CATCH_UP_LIMIT);
        assertThat(c.ran().get(999)).isEqualTo(ANCHOR.plus(HALF_MINUTE.multipliedBy(999)));
        assertThat(c.cut()).contains(new NextOccurrence.Cut(ANCHOR.plus(HALF_MINUTE.multipliedBy(1_000)),
                ANCHOR.plus(HALF_MINUTE.multipliedBy(2_879)), 1_880));
        assertThat(c.resumed()).isEqualTo(new NextOccurrence(ANCHOR.plus(HALF_MINUTE.multipliedBy(2_880)), 0, c.cut()));
    }

    @Test
    void oneMissedPointOverTheLimitIsSkipped() {
        Grid grid = new AnchorGrid(ANCHOR, 30, ScheduleUnit.SECONDS, UTC);
        CatchUp c = catchUpAfter(grid, ANCHOR, ANCHOR.plus(HALF_MINUTE.multipliedBy(1_000)));
        assertThat(c.ran()).hasSize(1_000);
        Instant last = ANCHOR.plus(HALF_MINUTE.multipliedBy(1_000));
        assertThat(c.cut()).contains(new NextOccurrence.Cut(last, last, 1));
        assertThat(c.cut().orElseThrow().skippedText()).isEqualTo("1");
    }

    @Test
    void exactlyTheLimitMissedRunsThemAllAndCutsNothing() {
        Grid grid = new AnchorGrid(ANCHOR, 30, ScheduleUnit.SECONDS, UTC);
        CatchUp c = catchUpAfter(grid, ANCHOR, ANCHOR.plus(HALF_MINUTE.multipliedBy(999)).plusSeconds(29));
        assertThat(c.ran()).hasSize(1_000);
        assertThat(c.cut()).isEmpty();
        assertThat(c.resumed()).isEqualTo(new NextOccurrence(ANCHOR.plus(HALF_MINUTE.multipliedBy(1_000)), 0, Optional.empty()));
    }

    @Test
    void gridsCountTheirPointsAndAWalkedCountStopsPastItsLimit() {
        Instant to = ANCHOR.plus(HALF_MINUTE.multipliedBy(2_879));
        assertThat(new AnchorGrid(ANCHOR, 30, ScheduleUnit.SECONDS, UTC).count(ANCHOR, to, 1_000_000)).isEqualTo(2_880);
        assertThat(new AnchorGrid(ANCHOR, 30, ScheduleUnit.SECONDS, UTC).count(ANCHOR, to, 100)).isEqualTo(101);
        assertThat(new CronGrid("*/30 * * * * *", UTC).count(ANCHOR, to, 1_000_000)).isEqualTo(2_880);
        assertThat(new CronGrid("*/30 * * * * *", UTC).count(ANCHOR, to, 100)).isEqualTo(101);
        assertThat(new AnchorGrid(ANCHOR, 1, ScheduleUnit.DAYS, ZoneId.of("Europe/Paris"))
                .count(ANCHOR, ANCHOR.plus(Duration.ofDays(365)), 1_000)).isEqualTo(366);
        assertThat(new NextOccurrence.Cut(ANCHOR, to, 1_000_001).skippedText()).isEqualTo("more than 1000000");
    }

    @Test
    void aCutOnACronGridFindsTheLastMissedPointByBisection() {
        Grid grid = new CronGrid("* * * * * *", UTC);
        Instant now = ANCHOR.plusSeconds(86_400).plusMillis(250);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, now, Chain.CATCH_UP_LIMIT);
        assertThat(next.runAt()).isEqualTo(ANCHOR.plusSeconds(86_401));
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plusSeconds(1), ANCHOR.plusSeconds(86_400), 86_400));
    }

    @Test
    void aCutOfOnePointStartsAndEndsThere() {
        Grid grid = new AnchorGrid(ANCHOR, 1, ScheduleUnit.HOURS, UTC);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, ANCHOR.plusSeconds(3_600), Chain.CATCH_UP_LIMIT);
        assertThat(next.runAt()).isEqualTo(ANCHOR.plusSeconds(7_200));
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plusSeconds(3_600), ANCHOR.plusSeconds(3_600), 1));
    }

    @Test
    void aFuturePointResetsTheOverdueCountAndAnOnTimeRunIsNotLate() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        for (int previous : new int[] {37, 0}) {
            NextOccurrence next = Chain.next(grid, ANCHOR, true, ANCHOR.plusSeconds(60), previous);
            assertThat(next).isEqualTo(new NextOccurrence(ANCHOR.plus(FIFTEEN_MINUTES), 0, Optional.empty()));
        }
    }

    @Test
    void withoutAPreviousOccurrenceTheChainStartsAfterNow() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        Instant now = Instant.parse("2025-03-01T10:07:00Z");
        assertThat(Chain.next(grid, null, true, now, 0).runAt()).isEqualTo(Instant.parse("2025-03-01T10:15:00Z"));
        assertThat(Chain.first(grid, null, now).runAt()).isEqualTo(Instant.parse("2025-03-01T10:15:00Z"));
        // after a skipped slot later than now, never on it again
        assertThat(Chain.first(grid, Instant.parse("2025-03-01T10:15:00Z"), now).runAt())
                .isEqualTo(Instant.parse("2025-03-01T10:30:00Z"));
        // a point exactly at now is not in the future
        assertThat(Chain.first(grid, null, Instant.parse("2025-03-01T10:15:00Z")).runAt())
                .isEqualTo(Instant.parse("2025-03-01T10:30:00Z"));
    }

    @Test
    void aDefinitionChainsWithItsOwnCatchUp() {
        ScheduleDefinition catchingUp = new ScheduleDefinition("s", "job", Map.of(), ANCHOR, 15, ScheduleUnit.MINUTES,
                null, UTC, null, null, true, true).validate();
        ScheduleDefinition skipping = new ScheduleDefinition("s", "job", Map.of(), ANCHOR, 15, ScheduleUnit.MINUTES,
                null, UTC, null, null, false, true).validate();
        Instant now = ANCHOR.plus(Duration.ofMinutes(50));
        assertThat(Chain.next(catchingUp, ANCHOR, now, 0))
                .isEqualTo(new NextOccurrence(ANCHOR.plus(FIFTEEN_MINUTES), 2, Optional.empty()));
        assertThat(Chain.next(skipping, ANCHOR, now, 0))
                .isEqualTo(new NextOccurrence(ANCHOR.plus(Duration.ofMinutes(60)), 0, Optional.empty()));
    }

    @Test
    void aCatchUpSkipsMissedPointsWhoseDeadlineHasPassedAndGoesOnFromTheFirstStillRunnable() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        Duration hour = Duration.ofHours(1);
        // the occurrence due at ANCHOR expired 5 h 7 min later: of the 20 missed points after it, those up to
        // 4 h 7 min (16 of them: 00:15 .. 04:00) are past their hour; 04:15 is the first still runnable, due at once
        Instant now = ANCHOR.plus(Duration.ofHours(5)).plus(Duration.ofMinutes(7));
        NextOccurrence next = Chain.next(grid, ANCHOR, true, now, 0, hour);
        assertThat(next.runAt()).isEqualTo(Instant.parse("2025-01-01T04:15:00Z"));
        assertThat(next.overdueSeq()).isEqualTo(2);
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plus(FIFTEEN_MINUTES), Instant.parse("2025-01-01T04:00:00Z"), 16,
                NextOccurrence.Cut.Why.PAST_DEADLINE));
        // a point exactly at its deadline cannot run any more
        NextOccurrence atTheEdge = Chain.next(grid, ANCHOR, true, ANCHOR.plus(FIFTEEN_MINUTES).plus(hour), 0, hour);
        assertThat(atTheEdge.runAt()).isEqualTo(ANCHOR.plus(Duration.ofMinutes(30)));
        assertThat(atTheEdge.cut().orElseThrow().skipped()).isEqualTo(1);
    }

    @Test
    void aDeadlineLongerThanTheLateRunCutsNothingAndEveryPointPastItIsCutWhenNoneIsLeft() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        Instant now = ANCHOR.plus(Duration.ofMinutes(50));
        assertThat(Chain.next(grid, ANCHOR, true, now, 0, Duration.ofHours(1)))
                .isEqualTo(new NextOccurrence(ANCHOR.plus(FIFTEEN_MINUTES), 2, Optional.empty()));
        // deadline 10 s: 00:15, 00:30 and 00:45 are past theirs; the next runnable point lies ahead
        NextOccurrence next = Chain.next(grid, ANCHOR, true, now, 0, Duration.ofSeconds(10));
        assertThat(next).isEqualTo(new NextOccurrence(ANCHOR.plus(Duration.ofMinutes(60)), 0, Optional.of(new NextOccurrence.Cut(
                ANCHOR.plus(FIFTEEN_MINUTES), ANCHOR.plus(Duration.ofMinutes(45)), 3, NextOccurrence.Cut.Why.PAST_DEADLINE))));
        // without catch-up a deadline changes nothing: the next point after now
        assertThat(Chain.next(grid, ANCHOR, false, now, 0, Duration.ofSeconds(10)).runAt()).isEqualTo(ANCHOR.plus(Duration.ofMinutes(60)));
    }

    @Test
    void pastTheCatchUpLimitOneCutFromTheFirstMissedPointCoversThosePastTheirDeadlineToo() {
        Grid grid = new CronGrid("* * * * * *", UTC);
        Instant now = ANCHOR.plusSeconds(86_400).plusMillis(250);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, now, Chain.CATCH_UP_LIMIT, Duration.ofSeconds(60));
        assertThat(next.runAt()).isEqualTo(ANCHOR.plusSeconds(86_401));
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plusSeconds(1), ANCHOR.plusSeconds(86_400), 86_400));
    }
}
