package io.dispatchpolicy.it;

import io.dispatchpolicy.console.monitoring.HeldPolicy;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PolicySummary;
import io.dispatchpolicy.domain.model.Denial;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bad value written at runtime holds its policy quietly and visibly: the partitions wait
 * ({@code invalid_settings}), the console names the property, the log says so once per distinct bad
 * value and once when it is fixed — never a stack trace per tick.
 */
class HeldPolicyIT extends EngineTest {

    // A policy declared in standalone.xml, so the property exists before the test and is put back to
    // its value afterwards (a property the test created would only be cleared, and MicroProfile Config
    // may keep serving a cleared system property's last value to the next deployment).
    private static final String POLICY = "it-config";
    private static final String CAP = "dispatch.policy.it-config.gate.concurrency.max";

    @Inject
    Monitoring monitoring;

    @Test
    void aBadLiveSettingHoldsThePolicyQuietlyUntilFixed() throws IOException {
        stage(POLICY, "held", 3);
        long logBefore = serverLog().size();

        set(CAP, "abc");
        for (int i = 0; i < 4; i++) {
            db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = ?", POLICY);
            ticks.iterate();
        }
        assertThat(admitted(POLICY, "held")).isZero();
        assertThat(column("last_deny_reason", POLICY, "held")).isEqualTo(Denial.INVALID_SETTINGS);

        assertThat(monitoring.nodeStatus().heldPolicies()).extracting(HeldPolicy::policy, HeldPolicy::property, HeldPolicy::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(POLICY, CAP, "abc"));
        assertThat(monitoring.policies()).filteredOn(p -> p.name().equals(POLICY)).extracting(PolicySummary::held)
                .singleElement().isNotNull();
        assertThat(monitoring.partition(partitionId(POLICY, "held")).orElseThrow().waiting())
                .contains("held").contains(CAP);

        set(CAP, "also-bad");
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = ?", POLICY);
        ticks.iterate();

        set(CAP, "2");
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = ?", POLICY);
        ticks.iterate();
        assertThat(admitted(POLICY, "held")).isEqualTo(2); // the cap, 2 again
        assertThat(monitoring.nodeStatus().heldPolicies()).isEmpty();

        var written = serverLog().subList((int) logBefore, serverLog().size());
        assertThat(written).filteredOn(l -> l.contains("Policy '" + POLICY + "' is held")).hasSize(2);
        assertThat(written).filteredOn(l -> l.contains("Policy '" + POLICY + "' has valid settings again")).hasSize(1);
        assertThat(written).filteredOn(l -> l.startsWith("\tat ")).as("stack trace lines").isEmpty();
    }

    private static java.util.List<String> serverLog() throws IOException {
        return Files.readAllLines(Path.of(System.getProperty("jboss.server.log.dir"), "server.log"));
    }
}
