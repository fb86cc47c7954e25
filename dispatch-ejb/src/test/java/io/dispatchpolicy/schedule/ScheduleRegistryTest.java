package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** standalone.xml's {@code dispatch.schedule.<name>.*} over a code declaration: switching between the three timing modes. */
class ScheduleRegistryTest {

    private static final ScheduleDefinition HOURLY = new ScheduleDefinition("sync", "sync", Map.of(), Instant.parse("2025-01-01T00:05:00Z"),
            1, ScheduleUnit.HOURS, null, ZoneId.of("UTC"), null, null, false, true);

    @Test
    void aDelayPropertyTurnsAGridDeclarationIntoAFixedDelayOne() {
        ScheduleDefinition d = ScheduleRegistry.overlay("sync", HOURLY, Map.of("delay", "600")).validate();
        assertThat(d.isFixedDelay()).isTrue();
        assertThat(d.delay()).isEqualTo(Duration.ofMinutes(10));
        assertThat(d.anchor()).isNull();
        assertThat(d.intervalCount()).isNull();
        assertThat(d.unit()).isNull();
    }

    @Test
    void aCronPropertyTurnsAFixedDelayDeclarationBackOntoAGrid() {
        ScheduleDefinition delayed = HOURLY.afterEnd(Duration.ofSeconds(30));
        ScheduleDefinition d = ScheduleRegistry.overlay("sync", delayed, Map.of("cron", "0 3 * * *")).validate();
        assertThat(d.isCron()).isTrue();
        assertThat(d.delay()).isNull();
        assertThat(ScheduleRegistry.overlay("sync", delayed, Map.of("delay", "")).delay()).as("a blank delay is none").isNull();
    }

    @Test
    void aDelayBesideAGridPropertyOrNotInSecondsIsRefusedNamingTheField() {
        assertThatThrownBy(() -> ScheduleRegistry.overlay("sync", HOURLY, Map.of("delay", "10m")))
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessage("Schedule 'sync': delay must be whole seconds after each run ended (was '10m')");
        assertThatThrownBy(() -> ScheduleRegistry.overlay("sync", HOURLY, Map.of("delay", "60", "cron", "0 3 * * *")).validate())
                .hasMessageStartingWith("Schedule 'sync': delay cannot be combined with cron");
    }
}
