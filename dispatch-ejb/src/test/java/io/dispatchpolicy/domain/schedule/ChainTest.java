package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
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
            assertThat(next.overdueSeq()).isEqualTo(next.overdue() ? occurrence.overdueSeq() + 1 : 0);
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

    @Test
    void catchUpStopsAtItsLimitAndJumpsToTheFirstFuturePoint() {
        Grid grid = new AnchorGrid(ANCHOR, 1, ScheduleUnit.SECONDS, UTC);
        // the occurrence at ANCHOR ran on time; then 2,000 one-second points were missed, A the first of them
        Instant a = ANCHOR.plusSeconds(1);
        Instant now = ANCHOR.plusSeconds(2_000).plusMillis(500);
        NextOccurrence occurrence = new NextOccurrence(ANCHOR, 0, Optional.empty());
        int overdue = 0;
        while (true) {
            NextOccurrence next = Chain.next(grid, occurrence.runAt(), true, now, occurrence.overdueSeq());
            if (next.cut().isPresent()) {
                occurrence = next;
                break;
            }
            overdue++;
            assertThat(next.runAt()).isEqualTo(a.plusSeconds(overdue - 1));
            assertThat(next.overdueSeq()).isEqualTo(overdue);
            occurrence = next;
        }
        assertThat(overdue).isEqualTo(Chain.CATCH_UP_LIMIT);
        assertThat(occurrence.runAt()).isEqualTo(ANCHOR.plusSeconds(2_001));
        assertThat(occurrence.overdueSeq()).isZero();
        assertThat(occurrence.cut()).contains(new NextOccurrence.Cut(a.plusSeconds(1_000), ANCHOR.plusSeconds(2_000)));
    }

    @Test
    void aCutOnACronGridFindsTheLastMissedPointByBisection() {
        Grid grid = new CronGrid("* * * * * *", UTC);
        Instant now = ANCHOR.plusSeconds(86_400).plusMillis(250);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, now, Chain.CATCH_UP_LIMIT);
        assertThat(next.runAt()).isEqualTo(ANCHOR.plusSeconds(86_401));
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plusSeconds(1), ANCHOR.plusSeconds(86_400)));
    }

    @Test
    void aCutOfOnePointStartsAndEndsThere() {
        Grid grid = new AnchorGrid(ANCHOR, 1, ScheduleUnit.HOURS, UTC);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, ANCHOR.plusSeconds(3_600), Chain.CATCH_UP_LIMIT);
        assertThat(next.runAt()).isEqualTo(ANCHOR.plusSeconds(7_200));
        assertThat(next.cut()).contains(new NextOccurrence.Cut(ANCHOR.plusSeconds(3_600), ANCHOR.plusSeconds(3_600)));
    }

    @Test
    void aFuturePointResetsTheOverdueCount() {
        Grid grid = new AnchorGrid(ANCHOR, 15, ScheduleUnit.MINUTES, UTC);
        NextOccurrence next = Chain.next(grid, ANCHOR, true, ANCHOR.plusSeconds(60), 37);
        assertThat(next).isEqualTo(new NextOccurrence(ANCHOR.plus(FIFTEEN_MINUTES), 0, Optional.empty()));
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
                .isEqualTo(new NextOccurrence(ANCHOR.plus(FIFTEEN_MINUTES), 1, Optional.empty()));
        assertThat(Chain.next(skipping, ANCHOR, now, 0))
                .isEqualTo(new NextOccurrence(ANCHOR.plus(Duration.ofMinutes(60)), 0, Optional.empty()));
    }
}
