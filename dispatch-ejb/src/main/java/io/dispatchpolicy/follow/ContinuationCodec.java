package io.dispatchpolicy.follow;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.spi.Uniqueness;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A continuation as a follower row keeps it until its predecessor ends: its parameters (an object of strings)
 * and its spec — the submit options it was given, each kind by the values the option's own factory takes, and
 * the continuations that follow it, whole, as nested objects. Read back into the same {@link SubmitOption}s and
 * {@link Continuation}s, so a continuation is staged exactly as a call with those options would be.
 */
final class ContinuationCodec {

    private ContinuationCodec() {
    }

    static String parameters(Properties parameters) {
        Map<String, String> map = new java.util.TreeMap<>();
        parameters.stringPropertyNames().forEach(n -> map.put(n, parameters.getProperty(n)));
        return JsonCodec.write(map);
    }

    static Properties parameters(String json) {
        Properties p = new Properties();
        p.putAll(JsonCodec.readStrings(json));
        return p;
    }

    /** Its options and what follows it. */
    static String spec(Continuation c) {
        return specOf(c).build().toString();
    }

    private static JsonObjectBuilder specOf(Continuation c) {
        JsonArrayBuilder next = JsonCodec.JSON.createArrayBuilder();
        for (Continuation n : c.next()) {
            next.add(specOf(n).add("when", n.when().name()).add("job", n.jobXmlName()).add("parameters",
                    JsonCodec.parse(parameters(n.parameters()))));
        }
        return JsonCodec.JSON.createObjectBuilder().add("options", options(c.options().toArray(new SubmitOption[0]))).add("next", next);
    }

    /** The options a stored spec gave its continuation. */
    static SubmitOption[] options(String specJson) {
        return options(JsonCodec.parse(specJson).getJsonObject("options"));
    }

    /** The continuations that follow a stored one. */
    static List<Continuation> next(String specJson) {
        return next(JsonCodec.parse(specJson).getJsonArray("next"));
    }

    private static List<Continuation> next(JsonArray next) {
        List<Continuation> all = new ArrayList<>();
        for (JsonValue v : next) {
            JsonObject o = v.asJsonObject();
            Properties p = new Properties();
            o.getJsonObject("parameters").forEach((k, value) -> p.setProperty(k, ((jakarta.json.JsonString) value).getString()));
            SubmitOption[] options = options(o.getJsonObject("options"));
            Continuation c = switch (Continuation.When.valueOf(o.getString("when"))) {
                case SUCCESS -> Continuation.onSuccess(o.getString("job"), p, options);
                case FAILURE -> Continuation.onFailure(o.getString("job"), p, options);
                case ANY_END -> Continuation.onAnyEnd(o.getString("job"), p, options);
            };
            List<Continuation> then = next(o.getJsonArray("next"));
            all.add(then.isEmpty() ? c : c.then(then.toArray(new Continuation[0])));
        }
        return all;
    }

    private static JsonObjectBuilder options(SubmitOption[] o) {
        JsonObjectBuilder b = JsonCodec.JSON.createObjectBuilder();
        SubmitOption.priorityOf(o).ifPresent(p -> b.add("priority", p));
        SubmitOption.dueOf(o).ifPresent(d -> {
            if (d.delay() != null) {
                b.add("delayMs", d.delay().toMillis());
            } else {
                b.add("atMs", d.at().toEpochMilli());
            }
        });
        SubmitOption.laneOf(o).ifPresent(l -> b.add("lane", l));
        SubmitOption.timeoutOf(o).ifPresent(t -> b.add("timeoutMs", t.toMillis()));
        SubmitOption.progressTimeoutOf(o).ifPresent(t -> b.add("progressTimeoutMs", t.toMillis()));
        SubmitOption.costOf(o).ifPresent(c -> b.add("cost", c));
        SubmitOption.priorityOffsetOf(o).ifPresent(d -> b.add("priorityOffsetMs", d.toMillis()));
        SubmitOption.uniqueOf(o).ifPresent(u -> {
            JsonObjectBuilder k = JsonCodec.JSON.createObjectBuilder().add("key", u.key());
            JsonArrayBuilder covers = JsonCodec.JSON.createArrayBuilder();
            u.uniqueness().covers().stream().map(Enum::name).sorted().forEach(covers::add);
            k.add("covers", covers);
            if (u.uniqueness().window() != null) {
                k.add("windowMs", u.uniqueness().window().toMillis());
            }
            b.add("unique", k);
        });
        SubmitOption.expiryOf(o).ifPresent(e -> b.add("expiry", e.deadline() != null
                ? JsonCodec.JSON.createObjectBuilder().add("deadlineMs", e.deadline().toEpochMilli())
                : JsonCodec.JSON.createObjectBuilder().add("afterMs", e.after().toMillis())));
        SubmitOption.debounceOf(o).ifPresent(d -> b.add("debounce", JsonCodec.JSON.createObjectBuilder().add("key", d.key())
                .add("periodMs", d.debounce().period().toMillis()).add("maxWaitMs", d.debounce().maxWait().toMillis())));
        return b;
    }

    private static SubmitOption[] options(JsonObject o) {
        List<SubmitOption> all = new ArrayList<>();
        if (o.containsKey("priority")) {
            all.add(SubmitOption.priority(o.getInt("priority")));
        }
        if (o.containsKey("delayMs")) {
            all.add(SubmitOption.delay(Duration.ofMillis(o.getJsonNumber("delayMs").longValue())));
        }
        if (o.containsKey("atMs")) {
            all.add(SubmitOption.at(Instant.ofEpochMilli(o.getJsonNumber("atMs").longValue())));
        }
        if (o.containsKey("lane")) {
            all.add(SubmitOption.lane(o.getString("lane")));
        }
        if (o.containsKey("timeoutMs")) {
            all.add(SubmitOption.timeout(Duration.ofMillis(o.getJsonNumber("timeoutMs").longValue())));
        }
        if (o.containsKey("progressTimeoutMs")) {
            all.add(SubmitOption.progressTimeout(Duration.ofMillis(o.getJsonNumber("progressTimeoutMs").longValue())));
        }
        if (o.containsKey("cost")) {
            all.add(SubmitOption.cost(o.getInt("cost")));
        }
        if (o.containsKey("priorityOffsetMs")) {
            all.add(SubmitOption.priorityOffset(Duration.ofMillis(o.getJsonNumber("priorityOffsetMs").longValue())));
        }
        if (o.containsKey("unique")) {
            JsonObject u = o.getJsonObject("unique");
            EnumSet<Uniqueness.State> covers = EnumSet.noneOf(Uniqueness.State.class);
            u.getJsonArray("covers").getValuesAs(jakarta.json.JsonString.class).forEach(s -> covers.add(Uniqueness.State.valueOf(s.getString())));
            Duration window = u.containsKey("windowMs") ? Duration.ofMillis(u.getJsonNumber("windowMs").longValue()) : null;
            all.add(SubmitOption.unique(u.getString("key"), new Uniqueness(window, covers)));
        }
        if (o.containsKey("expiry")) {
            JsonObject e = o.getJsonObject("expiry");
            all.add(e.containsKey("deadlineMs") ? SubmitOption.deadline(Instant.ofEpochMilli(e.getJsonNumber("deadlineMs").longValue()))
                    : SubmitOption.expireAfter(Duration.ofMillis(e.getJsonNumber("afterMs").longValue())));
        }
        if (o.containsKey("debounce")) {
            JsonObject d = o.getJsonObject("debounce");
            all.add(SubmitOption.debounce(d.getString("key"), Duration.ofMillis(d.getJsonNumber("periodMs").longValue()),
                    Duration.ofMillis(d.getJsonNumber("maxWaitMs").longValue())));
        }
        return all.toArray(new SubmitOption[0]);
    }
}
