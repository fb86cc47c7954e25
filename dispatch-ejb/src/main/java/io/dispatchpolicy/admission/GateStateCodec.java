package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.gate.TokenBucket;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code partitions.gate_state}: token buckets by gate id, as
 * {@code {"throttle": {"tokens": 7.0, "at": 1700000000000}}}.
 */
public final class GateStateCodec {

    private GateStateCodec() {
    }

    public static Map<String, TokenBucket.State> readBuckets(String json) {
        Map<String, TokenBucket.State> buckets = new HashMap<>();
        if (json == null || json.isBlank()) {
            return buckets;
        }
        JsonObject state = JsonCodec.parse(json);
        state.forEach((id, value) -> {
            if (value.getValueType() == JsonValue.ValueType.OBJECT) {
                JsonObject o = value.asJsonObject();
                if (o.containsKey("tokens") && o.containsKey("at")) {
                    buckets.put(id, new TokenBucket.State(o.getJsonNumber("tokens").doubleValue(),
                            o.getJsonNumber("at").longValue()));
                }
            }
        });
        return buckets;
    }

    public static String writeBuckets(Map<String, TokenBucket.State> buckets) {
        JsonObjectBuilder b = JsonCodec.JSON.createObjectBuilder();
        buckets.forEach((id, s) -> b.add(id, JsonCodec.JSON.createObjectBuilder().add("tokens", s.tokens()).add("at", s.atMillis())));
        return b.build().toString();
    }
}
