package io.dispatchpolicy.partition;

import io.dispatchpolicy.domain.model.Overrides;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@link Overrides} as the {@code overrides} and {@code lane_overrides} columns hold them (V28). */
public final class OverrideCodec {

    private OverrideCodec() {
    }

    /** @param json the column's text; null or blank: none */
    public static Overrides read(String json) {
        if (json == null || json.isBlank()) {
            return Overrides.NONE;
        }
        JsonObject root = JsonCodec.parse(json);
        Map<String, Map<String, Overrides.Entry>> byScope = new LinkedHashMap<>();
        root.forEach((scope, params) -> {
            Map<String, Overrides.Entry> entries = new LinkedHashMap<>();
            params.asJsonObject().forEach((param, value) -> {
                JsonObject e = value.asJsonObject();
                JsonValue until = e.get("until");
                entries.put(param, new Overrides.Entry(e.getJsonNumber("value").doubleValue(),
                        until == null || until.getValueType() == JsonValue.ValueType.NULL ? null : ((JsonNumber) until).longValue(),
                        e.get("by") instanceof JsonString by ? by.getString() : null,
                        e.get("at") instanceof JsonNumber at ? at.longValue() : 0));
            });
            byScope.put(scope, entries);
        });
        return new Overrides(byScope);
    }

    /** @return the column's value: null when there is none */
    public static String write(Overrides overrides) {
        if (overrides.isEmpty()) {
            return null;
        }
        JsonObjectBuilder root = JsonCodec.JSON.createObjectBuilder();
        overrides.byScope().forEach((scope, params) -> {
            JsonObjectBuilder p = JsonCodec.JSON.createObjectBuilder();
            params.forEach((param, e) -> {
                JsonObjectBuilder entry = JsonCodec.JSON.createObjectBuilder().add("value", e.value());
                if (e.untilMillis() == null) {
                    entry.addNull("until");
                } else {
                    entry.add("until", e.untilMillis());
                }
                if (e.by() != null) {
                    entry.add("by", e.by());
                }
                p.add(param, entry.add("at", e.atMillis()));
            });
            root.add(scope, p);
        });
        return root.build().toString();
    }
}
