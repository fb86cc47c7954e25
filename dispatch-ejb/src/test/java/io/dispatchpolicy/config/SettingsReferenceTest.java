package io.dispatchpolicy.config;

import io.dispatchpolicy.notify.Webhooks;
import io.dispatchpolicy.policy.PolicySettings;
import io.dispatchpolicy.schedule.ScheduleRegistry;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settings reference cannot drift: every setting the engine reads has exactly one entry, and no entry names a
 * setting that does not exist (issue 37, deliverable 6).
 */
class SettingsReferenceTest {

    private static Set<String> names(List<SettingsReference.Entry> entries) {
        return entries.stream().flatMap(e -> Arrays.stream(e.name().split(", "))).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyGlobalAndServerSettingIsDocumentedOnce() {
        assertThat(names(SettingsReference.ENGINE)).isEqualTo(new TreeSet<>(DispatchSettings.GLOBAL));
        assertThat(SettingsReference.ENGINE).hasSize(DispatchSettings.GLOBAL.size());
        assertThat(names(SettingsReference.SERVER)).isEqualTo(new TreeSet<>(DispatchSettings.SERVER));
    }

    @Test
    void everyPolicyKnobScheduleFieldAndWebhookFieldIsDocumented() {
        Set<String> knobs = new TreeSet<>(PolicySettings.knobs());
        PolicySettings.perJobKnobs().forEach(k -> knobs.add(k + ".<job>"));
        knobs.add("gate.<gate-id>.<param>");
        assertThat(names(SettingsReference.POLICY)).isEqualTo(knobs);

        Set<String> fields = new HashSet<>(ScheduleRegistry.FIELDS);
        fields.remove("param");
        fields.add("param.<key>");
        assertThat(names(SettingsReference.SCHEDULE)).isEqualTo(new TreeSet<>(fields));
        assertThat(names(SettingsReference.WEBHOOK)).isEqualTo(new TreeSet<>(Webhooks.FIELDS));
        assertThat(names(SettingsReference.CALENDAR)).isEqualTo(new TreeSet<>(io.dispatchpolicy.domain.schedule.ExclusionCalendar.FIELDS));
        assertThat(names(SettingsReference.LIMIT)).isEqualTo(new TreeSet<>(io.dispatchpolicy.policy.LimitRegistry.SETTINGS));
    }

    @Test
    void thePageHasASectionAndARowPerEntry() {
        String page = SettingsReference.asciidoc();
        assertThat(page).startsWith("= Settings reference\n");
        assertThat(page.lines().filter(l -> l.startsWith("== "))).containsExactly("== Server", "== Engine", "== Policy knobs",
                "== Schedules", "== Calendars", "== Webhooks", "== Named limits");
        int entries = SettingsReference.SERVER.size() + SettingsReference.ENGINE.size() + SettingsReference.POLICY.size()
                + SettingsReference.SCHEDULE.size() + SettingsReference.CALENDAR.size() + SettingsReference.WEBHOOK.size()
                + SettingsReference.LIMIT.size();
        assertThat(page.lines().filter(l -> l.startsWith("|`"))).hasSize(entries);
        assertThat(page).contains("|`dispatch.tick-workers` |4 |");
    }
}
