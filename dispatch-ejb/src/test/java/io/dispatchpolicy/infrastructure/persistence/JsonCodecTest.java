package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.api.SubmissionRejectedException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonCodecTest {

    @Test
    void scalarsRoundTrip() {
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("tenant", "a\"b");
        ctx.put("limit", 5);
        ctx.put("rate", 2.5);
        ctx.put("big", new BigDecimal("12345678901234567890.5"));
        ctx.put("on", true);
        ctx.put("none", null);
        Map<String, Object> back = JsonCodec.readScalars(JsonCodec.write(ctx));
        assertThat(back).containsEntry("tenant", "a\"b").containsEntry("limit", 5L).containsEntry("rate", 2.5)
                .containsEntry("on", true).containsEntry("none", null);
    }

    @Test
    void stringsRoundTrip() {
        assertThat(JsonCodec.readStrings(JsonCodec.write(Map.of("k", "v \u00e9")))).isEqualTo(Map.of("k", "v \u00e9"));
    }

    @Test
    void refusesValuesThatAreNotJsonScalars() {
        assertThatThrownBy(() -> JsonCodec.write(Map.of("x", new Object())))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("Context value 'x'");
        assertThatThrownBy(() -> JsonCodec.write(Map.of("x", Double.NaN))).isInstanceOf(SubmissionRejectedException.class);
    }
}
