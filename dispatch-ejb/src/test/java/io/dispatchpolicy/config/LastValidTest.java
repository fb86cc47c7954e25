package io.dispatchpolicy.config;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** A live setting with a typo: reported once, the last valid value kept, and reported again after a fix. */
class LastValidTest {

    private final List<String> reports = new ArrayList<>();
    private final LastValid<Integer> setting = new LastValid<>(9);

    private static Supplier<Integer> parsing(String value) {
        return () -> {
            try {
                return Integer.valueOf(value);
            } catch (NumberFormatException e) {
                throw new InvalidSettingException("dispatch.node-threads", value, "a whole number");
            }
        };
    }

    private int read(String value) {
        return setting.read(parsing(value), e -> reports.add(e.getMessage()));
    }

    @Test
    void aTypoIsReportedOnceAndTheLastValidValueKept() {
        assertThat(read("4")).isEqualTo(4);
        assertThat(read("lots")).isEqualTo(4);
        assertThat(read("lots")).isEqualTo(4);
        assertThat(reports).containsExactly("Invalid value 'lots' for dispatch.node-threads: expected a whole number");
        assertThat(read("many")).as("another typo").isEqualTo(4);
        assertThat(reports).hasSize(2);
    }

    @Test
    void theSameTypoWrittenAgainAfterAFixIsReportedAgain() {
        read("lots");
        assertThat(read("6")).isEqualTo(6);
        assertThat(read("lots")).isEqualTo(6);
        assertThat(reports).as("both times the typo was written").hasSize(2);
    }

    @Test
    void beforeAnyValidReadTheInitialValueIsKept() {
        assertThat(read("lots")).isEqualTo(9);
        assertThat(setting.last()).isEqualTo(9);
    }
}
