package io.dispatchpolicy.it;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.console.monitoring.Hint;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.SettingNames;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code dispatch.*} property whose name names nothing (ADR 0023): written live, it is logged once as a
 * WARNING with the nearest declared name within a second, shown on the dashboard, ignored by the tick, and
 * fails no deployment check — so a redeploy over it boots (WildFly's rollback of a failed one would fail
 * the same way). Removed, it is logged as gone and leaves the dashboard.
 */
class SettingNamesIT extends EngineTest {

    private static final String TYPO_POLICY = "dispatch.policy.it-flaw.gate.concurrency.max";
    private static final String TYPO_KNOB = "dispatch.policy.it-flow.admision-batch-size";
    private static final String TYPO_SETTING = "dispatch.tick-max-duraton";
    private static final String UNKNOWN = "dispatch.no-such-knob";

    @Inject
    SettingNames names;

    @Inject
    PolicyRegistry policies;

    @Inject
    DispatchSettings settings;

    @Inject
    Monitoring monitoring;

    @Test
    void aLiveTypoIsWarnedOnceWithTheNearestNameShownOnTheDashboardAndFailsNothing() {
        long logFrom = logSize();
        set(TYPO_POLICY, "3");
        set(TYPO_KNOB, "5");
        set(TYPO_SETTING, "4");
        set(UNKNOWN, "1");

        // the node's maintenance looks every second
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> warningsSince(logFrom).size() == 4);
        Map<String, String> current = names.current();
        assertThat(current).containsEntry(TYPO_POLICY, "no declared policy is named 'it-flaw': did you mean 'it-flow'?")
                .containsEntry(TYPO_KNOB, "policy 'it-flow' has no setting 'admision-batch-size': did you mean 'admission-batch-size'?")
                .containsEntry(TYPO_SETTING, "no setting has this name: did you mean dispatch.tick-max-duration?")
                .containsEntry(UNKNOWN, "no setting has this name");
        assertThat(warningsSince(logFrom)).anyMatch(l -> l.contains(" WARNING ") && l.contains(TYPO_POLICY) && l.contains("'it-flow'"));

        // what a redeploy checks passes: the deployment boots over it
        policies.validateSettings();
        settings.validate();
        // the tick goes on, with the declared policy's own values
        ticks.iterate();
        assertThat(policies.effective("it-flow").admissionBatchSize()).isNotEqualTo(5);

        List<String> hints = monitoring.summary().hints().stream().map(Hint::text).toList();
        assertThat(hints).anyMatch(h -> h.contains(TYPO_POLICY) && h.contains("did you mean 'it-flow'?"));
        assertThat(hints.stream().filter(h -> h.startsWith("Setting dispatch."))).hasSize(4);

        // checked again, nothing new is logged
        names.check();
        assertThat(warningsSince(logFrom)).hasSize(4);

        System.clearProperty(TYPO_POLICY);
        System.clearProperty(TYPO_KNOB);
        System.clearProperty(TYPO_SETTING);
        System.clearProperty(UNKNOWN);
        names.check();
        assertThat(names.current()).doesNotContainKeys(TYPO_POLICY, TYPO_KNOB, TYPO_SETTING, UNKNOWN);
        assertThat(monitoring.summary().hints().stream().map(Hint::text)).noneMatch(h -> h.startsWith("Setting dispatch."));
    }

    private static Path log() {
        return Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
    }

    private static long logSize() {
        try {
            return Files.size(log());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** WARNING lines about ignored settings written to server.log since {@code from}. */
    private static List<String> warningsSince(long from) {
        try {
            byte[] all = Files.readAllBytes(log());
            String since = new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from),
                    java.nio.charset.StandardCharsets.UTF_8);
            return since.lines().filter(l -> l.contains(" WARNING ") && l.contains("is ignored:")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
