package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.api.SubmissionRejectedException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON for the jsonb columns: job parameters (string to string) and policy contexts (scalars). */
public final class JsonCodec {

    /**
     * Looked up once: {@code Json.createXxx} looks the provider up on every call (a ServiceLoader scan
     * through the deployment's class loaders), which cost more than the rest of a bulk submission.
     */
    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonCodec() {
    }

    public static String write(Map<String, ?> map) {
        JsonObjectBuilder b = JSON.createObjectBuilder();
        map.forEach((k, v) -> add(b, k, v));
        return b.build().toString();
    }

    /** A JSON array of strings. */
    public static String writeStrings(java.util.List<String> values) {
        jakarta.json.JsonArrayBuilder b = JSON.createArrayBuilder();
        values.forEach(b::add);
        return b.build().toString();
    }

    /**
     * As {@link #write}, where values may also be maps of such values (a schedule's snapshot holds its
     * parameters as an object). Submissions use {@link #write}: a context holds scalars only.
     */
    public static String writeNested(Map<String, ?> map) {
        return nested(map).build().toString();
    }

    private static JsonObjectBuilder nested(Map<?, ?> map) {
        JsonObjectBuilder b = JSON.createObjectBuilder();
        map.forEach((k, v) -> {
            if (v instanceof Map<?, ?> inner) {
                b.add(String.valueOf(k), nested(inner));
            } else {
                add(b, String.valueOf(k), v);
            }
        });
        return b;
    }

    private static void add(JsonObjectBuilder b, String key, Object v) {
        if (v == null) {
            b.addNull(key);
        } else if (v instanceof String s) {
            b.add(key, s);
        } else if (v instanceof Boolean bool) {
            b.add(key, bool);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            b.add(key, ((Number) v).longValue());
        } else if (v instanceof BigInteger big) {
            b.add(key, big);
        } else if (v instanceof BigDecimal dec) {
            b.add(key, dec);
        } else if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            b.add(key, n.doubleValue());
        } else {
            throw new SubmissionRejectedException("Context value '" + key + "' is a " + v.getClass().getName()
                    + ": a context holds only strings, finite numbers, booleans and nulls");
        }
    }

    public static Map<String, String> readStrings(String json) {
        JsonObject o = parse(json);
        Map<String, String> map = new LinkedHashMap<>();
        o.forEach((k, v) -> {
            if (!(v instanceof JsonString text)) {
                throw new IllegalArgumentException("value of '" + k + "' is " + v.getValueType() + ", not a string");
            }
            map.put(k, text.getString());
        });
        return map;
    }

    public static Map<String, Object> readScalars(String json) {
        JsonObject o = parse(json);
        Map<String, Object> map = new LinkedHashMap<>();
        o.forEach((k, v) -> map.put(k, scalar(v)));
        return map;
    }

    private static Object scalar(JsonValue v) {
        switch (v.getValueType()) {
            case STRING:
                return ((JsonString) v).getString();
            case NUMBER:
                JsonNumber n = (JsonNumber) v;
                return n.isIntegral() ? (Object) n.longValue() : (Object) n.doubleValue();
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    public static JsonObject parse(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
