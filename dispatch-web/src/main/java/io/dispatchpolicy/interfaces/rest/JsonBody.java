package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.interfaces.web.Formats;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A request's JSON object read field by field: each getter answers null for an absent (or null) field and
 * throws a 400 {@link Problem} naming the field — with its path, as {@code unique.window} — for a value of the
 * wrong kind. Unknown fields are refused too, so a misspelt option is an error rather than silently ignored.
 */
final class JsonBody {

    private final JsonObject object;
    private final String path;

    private JsonBody(JsonObject object, String path) {
        this.object = object;
        this.path = path;
    }

    /** The request's body: a JSON object with only {@code allowed} fields. */
    static JsonBody of(JsonObject body, Set<String> allowed) {
        if (body == null) {
            throw Problem.badField(null, "Send a JSON object (Content-Type: application/json) with the fields " + new java.util.TreeSet<>(allowed));
        }
        return new JsonBody(body, "").only(allowed);
    }

    private JsonBody only(Set<String> allowed) {
        for (String name : object.keySet()) {
            if (!allowed.contains(name)) {
                throw Problem.badField(name(name), "Unknown field '" + name(name) + "': the fields here are " + new java.util.TreeSet<>(allowed));
            }
        }
        return this;
    }

    String name(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    boolean has(String field) {
        JsonValue v = object.get(field);
        return v != null && v.getValueType() != JsonValue.ValueType.NULL;
    }

    /** A nested object with only {@code allowed} fields; null when absent. */
    JsonBody object(String field, Set<String> allowed) {
        if (!has(field)) {
            return null;
        }
        if (!(object.get(field) instanceof JsonObject nested)) {
            throw Problem.badField(name(field), name(field) + " must be an object");
        }
        return new JsonBody(nested, name(field)).only(allowed);
    }

    /** Each object of a list of objects with only {@code allowed} fields, named {@code field[i]}; empty when absent. */
    java.util.List<JsonBody> objects(String field, Set<String> allowed) {
        if (!has(field)) {
            return java.util.List.of();
        }
        if (!(object.get(field) instanceof jakarta.json.JsonArray array)) {
            throw Problem.badField(name(field), name(field) + " must be a list of objects");
        }
        java.util.List<JsonBody> all = new java.util.ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonObject nested)) {
                throw Problem.badField(name(field) + "[" + i + "]", name(field) + "[" + i + "] must be an object");
            }
            all.add(new JsonBody(nested, name(field) + "[" + i + "]").only(allowed));
        }
        return all;
    }

    JsonValue raw(String field) {
        return has(field) ? object.get(field) : null;
    }

    String text(String field) {
        if (!has(field)) {
            return null;
        }
        if (!(object.get(field) instanceof JsonString s)) {
            throw Problem.badField(name(field), name(field) + " must be a string");
        }
        return s.getString();
    }

    Integer integer(String field) {
        if (!has(field)) {
            return null;
        }
        if (!(object.get(field) instanceof JsonNumber n) || !n.isIntegral()) {
            throw Problem.badField(name(field), name(field) + " must be a whole number, was " + object.get(field));
        }
        try {
            return n.intValueExact();
        } catch (ArithmeticException e) {
            throw Problem.badField(name(field), name(field) + " is out of range: " + n);
        }
    }

    Boolean bool(String field) {
        if (!has(field)) {
            return null;
        }
        JsonValue v = object.get(field);
        if (v == JsonValue.TRUE || v == JsonValue.FALSE) {
            return v == JsonValue.TRUE;
        }
        throw Problem.badField(name(field), name(field) + " must be true or false, was " + v);
    }

    /** A duration: seconds as a number (fractions to the millisecond), or ISO-8601 such as {@code "PT90S"}. */
    Duration duration(String field) {
        if (!has(field)) {
            return null;
        }
        JsonValue v = object.get(field);
        if (v instanceof JsonNumber n) {
            BigDecimal millis = n.bigDecimalValue().movePointRight(3);
            try {
                return Duration.ofMillis(millis.longValueExact());
            } catch (ArithmeticException e) {
                throw Problem.badField(name(field), name(field) + ": " + n + " seconds is not a whole number of milliseconds or is out of range");
            }
        }
        if (v instanceof JsonString s) {
            try {
                return Duration.parse(s.getString().strip());
            } catch (DateTimeParseException e) {
                throw Problem.badField(name(field), name(field) + ": '" + s.getString() + "' is not a duration: give seconds (90) or ISO-8601 (\"PT90S\")");
            }
        }
        throw Problem.badField(name(field), name(field) + " must be seconds or an ISO-8601 duration, was " + v);
    }

    /** An instant: ISO-8601 with an offset ({@code 2026-12-01T08:00:00Z}) or relative to now ({@code +30m}, {@code +2h}, {@code +1d}). */
    Instant instant(String field) {
        String text = text(field);
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.startsWith("+")) {
            try {
                return Formats.parseUntil(t, Instant.now());
            } catch (IllegalArgumentException e) {
                throw Problem.badField(name(field), name(field) + ": " + e.getMessage());
            }
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw Problem.badField(name(field), name(field) + ": '" + t + "' is not an instant: give ISO-8601 with an offset "
                    + "(2026-12-01T08:00:00Z) or +30m, +2h, +1d");
        }
    }

    /** An object of string values (numbers and booleans taken as their text): job or schedule parameters. */
    Map<String, String> strings(String field) {
        return has(field) ? strings(name(field), object.get(field)) : null;
    }

    static Map<String, String> strings(String name, JsonValue value) {
        if (!(value instanceof JsonObject o)) {
            throw Problem.badField(name, name + " must be an object of parameter names to values");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : o.entrySet()) {
            JsonValue v = e.getValue();
            String text = switch (v.getValueType()) {
                case STRING -> ((JsonString) v).getString();
                case NUMBER, TRUE, FALSE -> v.toString();
                default -> throw Problem.badField(name, name + "." + e.getKey() + " must be a string, a number or a boolean, was " + v);
            };
            map.put(e.getKey(), text);
        }
        return map;
    }
}
