package io.dispatchpolicy.notify;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The webhooks' settings at their limits: exactly at each bound accepted, one step past it refused with the property named. */
class WebhooksTest {

    private static Webhooks over(Map<String, String> properties) {
        Webhooks w = new Webhooks();
        w.settings = new DispatchSettings() {
            @Override
            public Set<String> propertyNames(String prefix) {
                return new TreeSet<>(properties.keySet());
            }

            @Override
            public Optional<String> raw(String property) {
                return Optional.ofNullable(properties.get(property));
            }
        };
        return w;
    }

    private static Webhook one(String field, String value) {
        return over(Map.of("dispatch.webhook.h.url", "https://hooks.example.com/x", "dispatch.webhook.h." + field, value)).read().get(0);
    }

    private static void refused(String field, String value, String expected) {
        assertThatThrownBy(() -> one(field, value)).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value '" + value + "' for dispatch.webhook.h." + field + ": expected " + expected);
    }

    @Test
    void eachBoundIsAcceptedAndOnePastItRefused() {
        assertThat(one("max-attempts", "1").maxAttempts()).isEqualTo(1);
        assertThat(one("max-attempts", "100").maxAttempts()).isEqualTo(100);
        refused("max-attempts", "0", "a whole number from 1 to 100");
        refused("max-attempts", "101", "a whole number from 1 to 100");
        assertThat(one("backoff", "0.01").backoff()).isEqualTo(Duration.ofMillis(10));
        assertThat(one("timeout", "3600").timeout()).isEqualTo(Duration.ofHours(1));
        refused("backoff", "0.009", "a number of seconds from 0.01 to 3600");
        refused("timeout", "3601", "a number of seconds from 0.01 to 3600");
        assertThat(one("events", "*").events()).containsExactlyInAnyOrder(EventType.values());
        assertThat(one("events", " job.dead ,job.expired").events()).containsExactlyInAnyOrder(EventType.JOB_DEAD, EventType.JOB_EXPIRED);
        refused("events", ",", "at least one event type, or '*'");
    }

    @Test
    void aWebhookWithoutUrlOrWithABadNameIsRefused() {
        assertThatThrownBy(() -> over(Map.of("dispatch.webhook.h.events", "*")).read()).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("dispatch.webhook.h.url");
        assertThatThrownBy(() -> over(Map.of("dispatch.webhook.Bad Name.url", "https://x.example.com")).read())
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("a webhook's name of lower-case letters");
        assertThat(over(Map.of()).read()).isEmpty();
    }
}
