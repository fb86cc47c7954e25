package io.dispatchpolicy.domain.schedule;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class LocalTimesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @Test
    void anOrdinaryLocalTimeHasItsOneOffset() {
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-03-29T02:30"), BERLIN))
                .isEqualTo(Instant.parse("2025-03-29T01:30:00Z"));
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-07-01T02:30"), BERLIN))
                .isEqualTo(Instant.parse("2025-07-01T00:30:00Z"));
    }

    @Test
    void aTimeInTheSpringForwardGapRunsWhenTheGapEnds() {
        // 02:30 does not exist on 2025-03-30 in Berlin: 03:00 CEST, not java.time's 03:30
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-03-30T02:30"), BERLIN))
                .isEqualTo(Instant.parse("2025-03-30T01:00:00Z"));
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-03-30T02:00"), BERLIN))
                .isEqualTo(Instant.parse("2025-03-30T01:00:00Z"));
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-03-09T02:30"), NEW_YORK))
                .isEqualTo(Instant.parse("2025-03-09T07:00:00Z"));
    }

    @Test
    void aTimeInTheFallBackOverlapRunsAtTheEarlierOffset() {
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-10-26T02:30"), BERLIN))
                .isEqualTo(Instant.parse("2025-10-26T00:30:00Z"));
        assertThat(LocalTimes.resolve(LocalDateTime.parse("2025-11-02T01:30"), NEW_YORK))
                .isEqualTo(Instant.parse("2025-11-02T05:30:00Z"));
    }

    @Test
    void laterLocalTimesNeverResolveEarlier() {
        for (String day : new String[] {"2025-03-30T00:00", "2025-10-26T00:00"}) {
            LocalDateTime local = LocalDateTime.parse(day);
            Instant previous = LocalTimes.resolve(local, BERLIN);
            for (int minute = 1; minute < 6 * 60; minute++) {
                Instant next = LocalTimes.resolve(local.plusMinutes(minute), BERLIN);
                assertThat(next).as("%s + %d min", day, minute).isAfterOrEqualTo(previous);
                previous = next;
            }
        }
    }
}
