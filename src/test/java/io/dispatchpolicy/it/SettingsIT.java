package io.dispatchpolicy.it;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Settings come from the {@code dispatch.*} system properties standalone.xml defines, and a change to
 * one (what {@code jboss-cli}'s write-attribute does) is seen on the next read, without a redeploy.
 */
class SettingsIT extends SystemTest {

    @Inject
    DispatchSettings settings;

    @Test
    void valuesFromStandaloneXml() {
        assertThat(settings.partitionBatchSize()).isEqualTo(50);
        assertThat(settings.admissionBatchSize()).isEqualTo(100);
        assertThat(settings.tickMaxDuration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.inflightStaleAfter()).isEqualTo(Duration.ofSeconds(300));
        assertThat(settings.nodeName()).isEqualTo("it-node");
    }

    @Test
    void aChangedPropertyAppliesOnTheNextRead() {
        String key = DispatchSettings.ADMISSION_BATCH_SIZE;
        String before = System.getProperty(key);
        try {
            System.setProperty(key, "7");
            assertThat(settings.admissionBatchSize()).isEqualTo(7);
            System.setProperty(key, "zero");
            assertThatThrownBy(settings::admissionBatchSize)
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessageContaining(key).hasMessageContaining("'zero'");
        } finally {
            System.setProperty(key, before);
        }
        assertThat(settings.admissionBatchSize()).isEqualTo(100);
    }
}
