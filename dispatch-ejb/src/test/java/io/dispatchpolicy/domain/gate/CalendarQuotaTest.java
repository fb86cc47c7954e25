package io.dispatchpolicy.domain.gate;

import io.dispatchpolicy.spi.QuotaPeriod;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Calendar quotas: periods from local midnight in a zone, days of 23 and 25 hours, months as long as they are. */
class CalendarQuotaTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static long at(String local, ZoneId zone) {
        return LocalDateTime.parse(local).atZone(zone).toInstant().toEpochMilli();
    }

    @Test
    void tenADayInBerlinTheEleventhWaitsUntilLocalMidnight() {
        long now = at("2026-11-28T10:15:00", BERLIN);
        TokenBucket.State state = CalendarQuota.current(null, QuotaPeriod.DAY, BERLIN, now);
        assertThat(state.atMillis()).isEqualTo(at("2026-11-28T00:00:00", BERLIN));
        for (int i = 0; i < 10; i++) {
            GateCheck check = CalendarQuota.check(state, 10, QuotaPeriod.DAY, BERLIN, now, 1);
            assertThat(check.allowed()).as("job %d", i + 1).isEqualTo(10 - i);
            state = CalendarQuota.charge(state, 1);
        }
        GateCheck eleventh = CalendarQuota.check(state, 10, QuotaPeriod.DAY, BERLIN, now, 1);
        assertThat(eleventh.denied()).isTrue();
        assertThat(eleventh.reason()).isEqualTo("quota_exhausted");
        assertThat(Instant.ofEpochMilli(now).plus(eleventh.retryAfter())).isEqualTo(Instant.parse("2026-11-28T23:00:00Z"));

        // at midnight the new day counts nothing: the eleventh is admitted
        long midnight = at("2026-11-29T00:00:00", BERLIN);
        TokenBucket.State tomorrow = CalendarQuota.current(state, QuotaPeriod.DAY, BERLIN, midnight);
        assertThat(tomorrow.tokens()).isZero();
        assertThat(CalendarQuota.check(tomorrow, 10, QuotaPeriod.DAY, BERLIN, midnight, 1).allowed()).isEqualTo(10);
        // a millisecond before, still the old day
        assertThat(CalendarQuota.current(state, QuotaPeriod.DAY, BERLIN, midnight - 1).tokens()).isEqualTo(10);
    }

    @Test
    void acrossADstChangeTheDayIs23Or25Hours() {
        assertThat(dayLength("2026-03-29T12:00:00", BERLIN)).isEqualTo(Duration.ofHours(23));
        assertThat(dayLength("2026-10-25T12:00:00", BERLIN)).isEqualTo(Duration.ofHours(25));
        assertThat(dayLength("2026-11-28T12:00:00", BERLIN)).isEqualTo(Duration.ofHours(24));
        // the spring-forward day's quota is exhausted at 22:00 local: it waits 2 hours, to midnight CEST
        long late = at("2026-03-29T22:00:00", BERLIN);
        TokenBucket.State full = CalendarQuota.charge(CalendarQuota.current(null, QuotaPeriod.DAY, BERLIN, late), 10);
        assertThat(CalendarQuota.check(full, 10, QuotaPeriod.DAY, BERLIN, late, 1).retryAfter()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void aMidnightTheZoneSkipsStartsTheDayAtTheEndOfTheGap() {
        // São Paulo's DST began at 00:00 on 2018-11-04: the day started at 01:00 -02:00 and was 23 hours long
        ZoneId saoPaulo = ZoneId.of("America/Sao_Paulo");
        Instant noon = LocalDateTime.parse("2018-11-04T12:00:00").atZone(saoPaulo).toInstant();
        assertThat(CalendarQuota.periodStart(noon, QuotaPeriod.DAY, saoPaulo)).isEqualTo(Instant.parse("2018-11-04T03:00:00Z"));
        assertThat(CalendarQuota.periodEnd(noon, QuotaPeriod.DAY, saoPaulo)).isEqualTo(Instant.parse("2018-11-05T02:00:00Z"));
    }

    @Test
    void weeksStartOnMondayAndMonthsOnTheFirstWhateverTheirLength() {
        Instant wednesday = Instant.ofEpochMilli(at("2026-11-25T09:00:00", BERLIN));
        assertThat(CalendarQuota.periodStart(wednesday, QuotaPeriod.WEEK, BERLIN)).isEqualTo(Instant.ofEpochMilli(at("2026-11-23T00:00:00", BERLIN)));
        assertThat(CalendarQuota.periodEnd(wednesday, QuotaPeriod.WEEK, BERLIN)).isEqualTo(Instant.ofEpochMilli(at("2026-11-30T00:00:00", BERLIN)));
        Instant february = Instant.ofEpochMilli(at("2026-02-14T09:00:00", BERLIN));
        assertThat(Duration.between(CalendarQuota.periodStart(february, QuotaPeriod.MONTH, BERLIN),
                CalendarQuota.periodEnd(february, QuotaPeriod.MONTH, BERLIN))).isEqualTo(Duration.ofDays(28));
        Instant march = Instant.ofEpochMilli(at("2026-03-14T09:00:00", BERLIN));
        assertThat(Duration.between(CalendarQuota.periodStart(march, QuotaPeriod.MONTH, BERLIN),
                CalendarQuota.periodEnd(march, QuotaPeriod.MONTH, BERLIN))).as("31 days, one hour short").isEqualTo(Duration.ofDays(31).minusHours(1));
        Instant leap = Instant.parse("2028-02-10T00:00:00Z");
        assertThat(CalendarQuota.periodEnd(leap, QuotaPeriod.MONTH, ZoneId.of("UTC"))).isEqualTo(Instant.parse("2028-03-01T00:00:00Z"));
    }

    @Test
    void aMaxChangedMidPeriodCountsAtOnceAndAJobOfCostNCountsN() {
        long now = at("2026-11-28T10:00:00", BERLIN);
        TokenBucket.State used = CalendarQuota.charge(CalendarQuota.current(null, QuotaPeriod.MONTH, BERLIN, now), 10);
        assertThat(CalendarQuota.check(used, 10, QuotaPeriod.MONTH, BERLIN, now, 1).denied()).isTrue();
        assertThat(CalendarQuota.check(used, 15, QuotaPeriod.MONTH, BERLIN, now, 1).allowed()).as("raised to 15").isEqualTo(5);
        assertThat(CalendarQuota.check(used, 15, QuotaPeriod.MONTH, BERLIN, now, 6).denied()).as("a job of cost 6 needs 6").isTrue();
        assertThat(CalendarQuota.check(used, 8, QuotaPeriod.MONTH, BERLIN, now, 1).denied()).as("lowered below what was used").isTrue();
        assertThat(CalendarQuota.spentUntilMillis(used, QuotaPeriod.MONTH, BERLIN)).isEqualTo(at("2026-12-01T00:00:00", BERLIN));
    }

    @Test
    void thePipelineChargesAQuotaUpAndABucketDown() {
        long now = at("2026-11-28T10:00:00", BERLIN);
        List<ResolvedGate> gates = List.of(new ResolvedGate.Throttle("throttle", 100, 60),
                new ResolvedGate.Quota("quota", 3, QuotaPeriod.DAY, BERLIN));
        GatePipeline.Evaluation e = GatePipeline.evaluate(gates, Map.of(), Map.of(), 0, now, 50);
        assertThat(e.admit()).as("the quota's three, though the bucket holds 100").isEqualTo(3);
        assertThat(e.quotas()).isEqualTo(Set.of("quota"));
        Map<String, TokenBucket.State> charged = e.charged(3);
        assertThat(charged.get("quota").tokens()).isEqualTo(3);
        assertThat(charged.get("throttle").tokens()).isEqualTo(97);
        GatePipeline.Evaluation next = GatePipeline.evaluate(gates, charged, Map.of(), 0, now, 1);
        assertThat(next.admit()).isZero();
        assertThat(next.reason()).isEqualTo("quota_exhausted");
        assertThat(next.retryAfter()).as("10:00 to midnight").isEqualTo(Duration.ofHours(14));
    }

    private static Duration dayLength(String local, ZoneId zone) {
        Instant t = LocalDateTime.parse(local).atZone(zone).toInstant();
        return Duration.between(CalendarQuota.periodStart(t, QuotaPeriod.DAY, zone), CalendarQuota.periodEnd(t, QuotaPeriod.DAY, zone));
    }
}
