package io.dispatchpolicy.domain.schedule;

import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class ScheduleDefinitionTest {

    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static ScheduleDefinition anchored(String name, Instant anchor, Integer interval, ScheduleUnit unit) {
        return new ScheduleDefinition(name, "report", Map.of(), anchor, interval, unit, null, null, null, null,
                false, true);
    }

    private static ScheduleDefinition cron(String name, String cron, ZoneId zone) {
        return new ScheduleDefinition(name, "report", Map.of(), null, null, null, cron, zone, null, null, false, true);
    }

    private static ScheduleDefinition nightly() {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("scope", "all");
        parameters.put("format", "pdf");
        return new ScheduleDefinition("nightly", "report.xml", parameters, ANCHOR, 15, ScheduleUnit.MINUTES, null,
                BERLIN, 5, "bulk", true, true);
    }

    @Test
    void aValidDefinitionIsReturnedByValidate() {
        ScheduleDefinition d = nightly();
        assertThat(d.validate()).isSameAs(d);
        assertThat(d.isCron()).isFalse();
        assertThat(d.grid()).isInstanceOf(AnchorGrid.class);
        ScheduleDefinition c = cron("weekdays", "0 8 * * MON-FRI", ZoneId.of("America/New_York")).validate();
        assertThat(c.isCron()).isTrue();
        assertThat(c.grid()).isInstanceOf(CronGrid.class);
    }

    @Test
    void aFixedDelayIsAThirdModeWithItsOwnRules() {
        ScheduleDefinition d = anchored("poll", null, null, null).afterEnd(java.time.Duration.ofMinutes(10)).validate();
        assertThat(d.isFixedDelay()).isTrue();
        assertThat(d.isCron()).isFalse();
        assertThat(d.snapshot()).containsEntry("delay", 600L).doesNotContainKeys("anchor", "interval", "unit", "cron");
        assertThatThrownBy(d::grid).isInstanceOf(IllegalStateException.class).hasMessageContaining("has no grid");
        assertThat(d.differsInOccurrence(d.afterEnd(java.time.Duration.ofMinutes(11)))).as("the delay is when it runs").isTrue();
        assertThat(ScheduleDefinition.of(d.toSchedule())).as("round trip through the spi").isEqualTo(d);

        assertThat(d.afterEnd(java.time.Duration.ofSeconds(1)).validate().delay()).as("the shortest").hasSeconds(1);
        assertThat(d.afterEnd(java.time.Duration.ofDays(366)).validate().delay()).as("the longest").hasDays(366);
        assertThatThrownBy(() -> d.afterEnd(java.time.Duration.ofDays(366).plusSeconds(1)).validate())
                .hasMessageStartingWith("Schedule 'poll': delay must be 1 second to 366 days");
        assertThatThrownBy(() -> d.afterEnd(java.time.Duration.ZERO).validate())
                .hasMessage("Schedule 'poll': delay must be 1 second to 366 days after the previous run ended (was 0 s)");
        assertThatThrownBy(() -> d.afterEnd(java.time.Duration.ofDays(367)).validate())
                .hasMessageStartingWith("Schedule 'poll': delay must be 1 second to 366 days");
        assertThatThrownBy(() -> d.afterEnd(java.time.Duration.ofMillis(1_500)).validate())
                .hasMessage("Schedule 'poll': delay must be whole seconds (was PT1.5S)");
        assertThatThrownBy(() -> new ScheduleDefinition("poll", "report", Map.of(), null, null, null, "0 8 * * *", BERLIN, null, null,
                false, true, null, null, java.time.Duration.ofSeconds(5)).validate())
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 'poll': delay cannot be combined with cron");
        assertThatThrownBy(() -> new ScheduleDefinition("poll", "report", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null, BERLIN, null, null,
                false, true, null, null, java.time.Duration.ofSeconds(5)).validate())
                .hasMessageStartingWith("Schedule 'poll': delay cannot be combined with anchor, interval or unit");
        assertThatThrownBy(() -> new ScheduleDefinition("poll", "report", Map.of(), null, null, null, null, BERLIN, null, null,
                true, true, null, null, java.time.Duration.ofSeconds(5)).validate())
                .hasMessageStartingWith("Schedule 'poll': catch-up has no meaning with a delay");
        assertThat(new ScheduleDeclarationException("Schedule 'poll': catch-up has no meaning with a delay").field()).isEqualTo("catch-up");
        assertThat(new ScheduleDeclarationException("Schedule 'poll': delay must be whole seconds").field()).isEqualTo("delay");
    }

    @Test
    void theConstructorNormalizes() {
        ScheduleDefinition d = nightly();
        assertThat(d.jobName()).isEqualTo("report");
        assertThat(d.parameters()).containsExactly(entry("format", "pdf"), entry("scope", "all"));
        assertThat(anchored("s", ANCHOR, 1, ScheduleUnit.DAYS).zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(cron("s", " 0  8 * * *", ZoneOffset.UTC).zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(cron("s", " 0  8 * * *", null).cron()).isEqualTo("0 8 * * *");
        assertThat(new ScheduleDefinition("s", "j", null, ANCHOR, 1, ScheduleUnit.DAYS, null, null, null, " ",
                false, true).lane()).isNull();
    }

    @Test
    void theSnapshotIsCanonical() {
        assertThat(nightly().snapshot()).containsExactly(
                entry("name", "nightly"),
                entry("job", "report"),
                entry("parameters", Map.of("format", "pdf", "scope", "all")),
                entry("anchor", "2025-01-01T00:00:00Z"),
                entry("interval", 15),
                entry("unit", "minutes"),
                entry("zone", "Europe/Berlin"),
                entry("priority", 5),
                entry("lane", "bulk"),
                entry("catch-up", true),
                entry("enabled", true));
        assertThat(cron("weekdays", "0 8 * * MON-FRI", null).snapshot()).containsExactly(
                entry("name", "weekdays"),
                entry("job", "report"),
                entry("parameters", Map.of()),
                entry("cron", "0 8 * * MON-FRI"),
                entry("zone", "UTC"),
                entry("catch-up", false),
                entry("enabled", true));
    }

    @Test
    void onlyWhatOrWhenAnOccurrenceRunsNeedsANewVersion() {
        ScheduleDefinition d = nightly();
        ScheduleDefinition sameButReordered = new ScheduleDefinition("nightly", "report",
                Map.of("scope", "all", "format", "pdf"), ANCHOR, 15, ScheduleUnit.MINUTES, null, BERLIN, 5, "bulk",
                false, false);
        assertThat(d.differsInOccurrence(sameButReordered)).as("catch-up and enabled").isFalse();

        ScheduleDefinition everyTen = new ScheduleDefinition("nightly", "report", d.parameters(), ANCHOR, 10,
                ScheduleUnit.MINUTES, null, ZoneId.of("UTC"), 5, "bulk", true, true);
        assertThat(d.differsInOccurrence(everyTen)).isTrue();
        assertThat(d.occurrenceChanges(everyTen))
                .containsExactly(ScheduleDefinition.Field.INTERVAL, ScheduleDefinition.Field.ZONE);

        ScheduleDefinition otherLane = new ScheduleDefinition("nightly", "report", d.parameters(), ANCHOR, 15,
                ScheduleUnit.MINUTES, null, BERLIN, 5, null, true, true);
        assertThat(d.occurrenceChanges(otherLane)).containsExactly(ScheduleDefinition.Field.LANE);

        assertThat(cron("s", "0 8 * * *", null).differsInOccurrence(cron("s", "0  8 * *  * ", null))).isFalse();
        assertThat(ScheduleDefinition.OCCURRENCE_FIELDS).doesNotContain(ScheduleDefinition.Field.NAME,
                ScheduleDefinition.Field.CATCH_UP, ScheduleDefinition.Field.ENABLED);
    }

    @Test
    void theNameFollowsThePolicyRule() {
        assertThatThrownBy(() -> anchored("bad name", ANCHOR, 1, ScheduleUnit.DAYS).validate())
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 'bad name': name is invalid: use 1-63 letters");
        assertThatThrownBy(() -> anchored(null, ANCHOR, 1, ScheduleUnit.DAYS).validate())
                .hasMessageStartingWith("Schedule 'null': name is invalid");
        assertThatThrownBy(() -> anchored("x".repeat(64), ANCHOR, 1, ScheduleUnit.DAYS).validate())
                .hasMessageContaining("name is invalid");
        assertThat(anchored("a.b_c-9", ANCHOR, 1, ScheduleUnit.DAYS).validate().name()).isEqualTo("a.b_c-9");
    }

    @Test
    void theJobIsRequired() {
        assertThatThrownBy(() -> new ScheduleDefinition("s", " ", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null, null,
                null, null, false, true).validate())
                .hasMessage("Schedule 's': job is required: the job XML name each occurrence starts");
        assertThatThrownBy(() -> new ScheduleDefinition("s", null, Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null, null,
                null, null, false, true).validate()).hasMessageStartingWith("Schedule 's': job is required");
    }

    @Test
    void exactlyOneModeIsDeclared() {
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, "0 8 * * *",
                null, null, null, false, true).validate())
                .hasMessageStartingWith("Schedule 's': cron cannot be combined with anchor, interval or unit");
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", Map.of(), null, null, null, null,
                null, null, null, false, true).validate())
                .hasMessageStartingWith("Schedule 's': cron, anchor with interval and unit, or delay is required");
    }

    @Test
    void anAnchoredScheduleNeedsAllThreeOfItsFields() {
        assertThatThrownBy(() -> anchored("s", ANCHOR, 0, ScheduleUnit.DAYS).validate())
                .hasMessage("Schedule 's': interval must be >= 1 (was 0)");
        assertThatThrownBy(() -> anchored("s", ANCHOR, null, ScheduleUnit.DAYS).validate())
                .hasMessageStartingWith("Schedule 's': interval is required");
        assertThatThrownBy(() -> anchored("s", ANCHOR, 1, null).validate())
                .hasMessage("Schedule 's': unit is required with an interval: one of "
                        + "seconds|minutes|hours|days|weeks|months|years");
        assertThatThrownBy(() -> anchored("s", null, 1, ScheduleUnit.DAYS).validate())
                .hasMessageStartingWith("Schedule 's': anchor is required");
    }

    @Test
    void anUnknownUnitNamesTheAcceptedOnes() {
        assertThat(ScheduleDefinition.parseUnit("nightly", " Months ")).isEqualTo(ScheduleUnit.MONTHS);
        assertThatThrownBy(() -> ScheduleDefinition.parseUnit("nightly", "fortnights"))
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessage("Schedule 'nightly': unit must be one of seconds|minutes|hours|days|weeks|months|years "
                        + "(was 'fortnights')");
    }

    @Test
    void theZoneIsARegionOrUtc() {
        assertThat(ScheduleDefinition.parseZone("s", "Europe/Berlin")).isEqualTo(BERLIN);
        assertThat(ScheduleDefinition.parseZone("s", null)).isEqualTo(ZoneId.of("UTC"));
        assertThat(ScheduleDefinition.parseZone("s", "UTC")).isEqualTo(ZoneId.of("UTC"));
        assertThat(ScheduleDefinition.parseZone("s", "Z")).isEqualTo(ZoneId.of("UTC"));
        assertThatThrownBy(() -> ScheduleDefinition.parseZone("s", "+02:00"))
                .hasMessageStartingWith("Schedule 's': zone '+02:00' is a fixed offset");
        assertThatThrownBy(() -> ScheduleDefinition.parseZone("s", "UTC+02:00"))
                .hasMessageStartingWith("Schedule 's': zone 'UTC+02:00' is not a region id");
        assertThatThrownBy(() -> ScheduleDefinition.parseZone("s", "Mars/Olympus_Mons"))
                .hasMessageStartingWith("Schedule 's': zone 'Mars/Olympus_Mons' is not a known region id");
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null,
                ZoneOffset.ofHours(2), null, null, false, true).validate())
                .hasMessageStartingWith("Schedule 's': zone '+02:00' is a fixed offset");
    }

    @Test
    void aCronExpressionMustParseAndMatch() {
        assertThatThrownBy(() -> cron("s", "0 0 30 2 *", null).validate())
                .hasMessageStartingWith("Schedule 's': cron '0 0 30 2 *' never matches");
        assertThatThrownBy(() -> cron("s", "61 * * * *", null).validate())
                .hasMessageStartingWith("Schedule 's': cron '61 * * * *' cannot be parsed");
        assertThatThrownBy(() -> cron("s", "0 0 8 * * * 2025", null).validate())
                .hasMessageStartingWith("Schedule 's': cron '0 0 8 * * * 2025' has 7 field(s)");
        assertThatThrownBy(() -> cron("s", "  ", null).validate()).hasMessage("Schedule 's': cron is blank");
        assertThat(cron("s", "0 0 29 2 *", BERLIN).validate().cron()).isEqualTo("0 0 29 2 *");
    }

    @Test
    void aLaneFollowsTheNameRule() {
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null, null,
                null, "a lane", false, true).validate())
                .hasMessageStartingWith("Schedule 's': lane 'a lane' is invalid");
    }

    @Test
    void aDeadlineIsOneSecondToTenYearsAndChangesWhatAnOccurrenceIs() {
        ScheduleDefinition d = new ScheduleDefinition("s", "j", Map.of(), ANCHOR, 1, ScheduleUnit.DAYS, null, null, null, null, false, true);
        for (java.time.Duration bad : new java.time.Duration[] {java.time.Duration.ZERO, java.time.Duration.ofSeconds(-5),
                java.time.Duration.ofMillis(999), ScheduleDefinition.MAX_DEADLINE.plusSeconds(1)}) {
            assertThatThrownBy(() -> d.withDeadline(bad).validate()).isInstanceOf(ScheduleDeclarationException.class)
                    .hasMessageStartingWith("Schedule 's': deadline must be 1 second to 3653 days after each run time");
        }
        ScheduleDefinition withDeadline = d.withDeadline(java.time.Duration.ofMinutes(5)).validate();
        assertThat(d.occurrenceChanges(withDeadline)).containsExactly(ScheduleDefinition.Field.DEADLINE);
        assertThat(withDeadline.snapshot()).containsEntry("deadline", 300L);
        assertThat(withDeadline.runningAs("alice").deadline()).isEqualTo(java.time.Duration.ofMinutes(5));
        assertThat(d.snapshot()).doesNotContainKey("deadline");
    }

    @Test
    void parametersNeedNamesAndValues() {
        Map<String, String> nullValue = new LinkedHashMap<>();
        nullValue.put("tenant", null);
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", nullValue, ANCHOR, 1, ScheduleUnit.DAYS, null, null,
                null, null, false, true))
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 's': param.tenant is null");
        assertThatThrownBy(() -> new ScheduleDefinition("s", "j", Map.of(" ", "x"), ANCHOR, 1, ScheduleUnit.DAYS, null,
                null, null, null, false, true).validate())
                .hasMessage("Schedule 's': param has a blank name");
    }

    @Test
    void aLocalAnchorTheClocksSkipIsRefused() {
        assertThat(ScheduleDefinition.anchorAt("s", LocalDateTime.parse("2025-10-26T02:30"), BERLIN))
                .isEqualTo(Instant.parse("2025-10-26T00:30:00Z"));
        assertThatThrownBy(() -> ScheduleDefinition.anchorAt("s", LocalDateTime.parse("2025-03-30T02:30"), BERLIN))
                .hasMessageStartingWith("Schedule 's': anchor 2025-03-30T02:30 does not exist in Europe/Berlin");
    }
}
