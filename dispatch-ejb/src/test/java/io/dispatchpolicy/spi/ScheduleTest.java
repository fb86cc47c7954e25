package io.dispatchpolicy.spi;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class ScheduleTest {

    @Test
    void anAnchoredDeclaration() {
        Schedule s = Schedule.named("nightly").job("report.xml").parameter("scope", "all").parameter("format", "pdf")
                .every(15, ScheduleUnit.MINUTES).from(Instant.parse("2025-01-01T00:00:00Z"))
                .zone("Europe/Berlin").priority(7).lane("bulk").catchUp().build();
        assertThat(s.name()).isEqualTo("nightly");
        assertThat(s.jobName()).isEqualTo("report");
        assertThat(s.parameters()).containsExactly(entry("format", "pdf"), entry("scope", "all"));
        assertThat(s.anchor()).contains(Instant.parse("2025-01-01T00:00:00Z"));
        assertThat(s.interval()).hasValue(15);
        assertThat(s.unit()).contains(ScheduleUnit.MINUTES);
        assertThat(s.cron()).isEmpty();
        assertThat(s.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(s.priority()).hasValue(7);
        assertThat(s.lane()).contains("bulk");
        assertThat(s.catchUp()).isTrue();
        assertThat(s.enabled()).isTrue();
        assertThat(ScheduleDefinition.of(s)).isEqualTo(new ScheduleDefinition("nightly", "report",
                Map.of("scope", "all", "format", "pdf"), Instant.parse("2025-01-01T00:00:00Z"), 15,
                ScheduleUnit.MINUTES, null, ZoneId.of("Europe/Berlin"), 7, "bulk", true, true));
    }

    @Test
    void aCronDeclarationDefaultsToUtcEnabledWithoutCatchUp() {
        Schedule s = Schedule.named("weekdays").job("digest").cron("0  8 * * MON-FRI").build();
        assertThat(s.cron()).contains("0 8 * * MON-FRI");
        assertThat(s.anchor()).isEmpty();
        assertThat(s.interval()).isEmpty();
        assertThat(s.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(s.priority()).isEmpty();
        assertThat(s.lane()).isEmpty();
        assertThat(s.catchUp()).isFalse();
        assertThat(s.enabled()).isTrue();
        assertThat(Schedule.named("off").job("digest").cron("0 8 * * *").disabled().build().enabled()).isFalse();
        assertThat(s).hasToString("Schedule[weekdays runs digest on cron '0 8 * * MON-FRI' in UTC]");
    }

    @Test
    void aLocalAnchorIsReadInTheZoneWhereverItIsGiven() {
        Schedule before = Schedule.named("s").job("j").every(1, ScheduleUnit.DAYS)
                .from(LocalDateTime.parse("2025-01-01T02:30")).zone("Europe/Berlin").build();
        Schedule after = Schedule.named("s").job("j").zone("Europe/Berlin").every(1, ScheduleUnit.DAYS)
                .from(LocalDateTime.parse("2025-01-01T02:30")).build();
        assertThat(before.anchor()).contains(Instant.parse("2025-01-01T01:30:00Z"));
        assertThat(after).isEqualTo(before);
        assertThat(Schedule.named("u").job("j").every(1, ScheduleUnit.DAYS)
                .from(LocalDateTime.parse("2025-01-01T02:30")).build().anchor())
                .contains(Instant.parse("2025-01-01T02:30:00Z"));
        assertThatThrownBy(() -> Schedule.named("s").job("j").every(1, ScheduleUnit.DAYS)
                .from(LocalDateTime.parse("2025-03-30T02:30")).zone("Europe/Berlin").build())
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 's': anchor 2025-03-30T02:30 does not exist in Europe/Berlin");
    }

    @Test
    void declarationMistakesNameTheScheduleAndTheField() {
        assertThatThrownBy(() -> Schedule.named("bad name").job("j").cron("0 8 * * *").build())
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 'bad name': name is invalid");
        assertThatThrownBy(() -> Schedule.named("s").cron("0 8 * * *").build())
                .hasMessageStartingWith("Schedule 's': job is required");
        assertThatThrownBy(() -> Schedule.named("s").job("j").every(15, ScheduleUnit.MINUTES)
                .from(Instant.EPOCH).cron("0 8 * * *").build())
                .hasMessageStartingWith("Schedule 's': cron cannot be combined");
        assertThatThrownBy(() -> Schedule.named("s").job("j").build())
                .hasMessageStartingWith("Schedule 's': cron, anchor with interval and unit, or delay is required");
        assertThatThrownBy(() -> Schedule.named("s").job("j").every(15, ScheduleUnit.MINUTES).build())
                .hasMessageStartingWith("Schedule 's': anchor is required");
        assertThatThrownBy(() -> Schedule.named("s").job("j").every(0, ScheduleUnit.MINUTES).from(Instant.EPOCH).build())
                .hasMessage("Schedule 's': interval must be >= 1 (was 0)");
        assertThatThrownBy(() -> Schedule.named("s").job("j").cron("0 8 * * *").zone("+02:00").build())
                .hasMessageStartingWith("Schedule 's': zone '+02:00' is a fixed offset");
        assertThatThrownBy(() -> Schedule.named("s").job("j").cron("0 8 * * *").zone("Europe/Berlinn").build())
                .hasMessageStartingWith("Schedule 's': zone 'Europe/Berlinn' is not a known region id");
        assertThatThrownBy(() -> Schedule.named("s").job("j").cron("0 0 30 2 *").build())
                .hasMessageStartingWith("Schedule 's': cron '0 0 30 2 *' never matches");
        assertThatThrownBy(() -> Schedule.named("s").job("j").parameter("tenant", null))
                .hasMessageStartingWith("Schedule 's': param.tenant is null");
    }

    @Test
    void unitsParseFromTheirLowercaseNames() {
        assertThat(ScheduleUnit.parse("weeks")).isEqualTo(ScheduleUnit.WEEKS);
        assertThat(ScheduleUnit.YEARS.label()).isEqualTo("years");
        assertThat(ScheduleUnit.HOURS.wallClock()).isFalse();
        assertThat(ScheduleUnit.DAYS.wallClock()).isTrue();
        assertThatThrownBy(() -> ScheduleUnit.parse("fortnights"))
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessage("unit must be one of seconds|minutes|hours|days|weeks|months|years (was 'fortnights')");
        assertThatThrownBy(() -> ScheduleUnit.parse(null)).hasMessageEndingWith("(was 'null')");
    }
}
