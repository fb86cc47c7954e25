package io.dispatchpolicy.demo;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The storm form's fields at their bounds, one step past them, and the weights of each distribution. */
class StormTest {

    @Test
    void everyFieldIsAcceptedAtItsBoundsAndRefusedOneStepPastThemNamingTheField() {
        assertThat(Storm.Request.parse(form("1", "1", "1", "uniform")))
                .isEqualTo(new Storm.Request(1, 1, Duration.ofSeconds(1), Storm.Distribution.UNIFORM));
        assertThat(Storm.Request.parse(form("200", "20000", "600", "one-heavy")))
                .isEqualTo(new Storm.Request(200, 20_000, Duration.ofSeconds(600), Storm.Distribution.ONE_HEAVY));

        refused(form("0", "1", "1", "uniform"), "tenants", "tenants must be a whole number from 1 to 200, was '0'");
        refused(form("201", "1", "1", "uniform"), "tenants", "tenants must be a whole number from 1 to 200, was '201'");
        refused(form("1", "20001", "1", "uniform"), "jobs", "jobs must be a whole number from 1 to 20000, was '20001'");
        refused(form("1", "1", "601", "uniform"), "duration", "duration must be a whole number from 1 to 600, was '601'");
        refused(form("1", "1", "soon", "uniform"), "duration", "duration must be a whole number from 1 to 600, was 'soon'");
        refused(form(null, "1", "1", "uniform"), "tenants", "tenants must be a whole number from 1 to 200, was ''");
        refused(form("1", "1", "1", "gaussian"), "distribution",
                "distribution must be uniform, triangular or one-heavy, was 'gaussian'");
    }

    @Test
    void triangularGivesTenantKOfNKSharesAndOneHeavyGivesTheFirstHalf() {
        assertThat(Storm.Distribution.TRIANGULAR.weights(4)).containsExactly(1, 2, 3, 4);
        assertThat(Storm.Distribution.UNIFORM.weights(3)).containsExactly(1, 1, 1);
        assertThat(Storm.Distribution.ONE_HEAVY.weights(3)).containsExactly(0.5, 0.25, 0.25);
        assertThat(Storm.Distribution.ONE_HEAVY.weights(1)).containsExactly(1);
    }

    private static void refused(Map<String, String> form, String field, String message) {
        assertThatThrownBy(() -> Storm.Request.parse(form)).isInstanceOfSatisfying(PlaygroundRefused.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    private static Map<String, String> form(String tenants, String jobs, String duration, String distribution) {
        Map<String, String> form = new HashMap<>();
        form.put("tenants", tenants);
        form.put("jobs", jobs);
        form.put("duration", duration);
        form.put("distribution", distribution);
        return form;
    }
}
