package io.dispatchpolicy.notify;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.config.NearestName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The declared webhooks, from {@code dispatch.webhook.<name>.<field>} settings: {@code url} (required), {@code events}
 * (comma-separated {@link EventType#wire()} names, or {@code *}, the default), {@code secret}, {@code max-attempts}
 * (default 8), {@code backoff} (seconds, default 5) and {@code timeout} (seconds, default 10).
 *
 * <p>Read live: {@link #refresh()} (each delivery pass) rereads them, so a webhook added, changed or removed with
 * {@code jboss-cli} applies within a second. The events' writers ask {@link #subscribers} on every event, so that
 * reads a snapshot, never the configuration. A deployment with a bad webhook setting fails ({@link #validate()});
 * one written live is reported once and the last valid webhooks are kept.
 */
@ApplicationScoped
public class Webhooks {

    private static final Logger LOG = Logger.getLogger(Webhooks.class.getName());

    public static final String PREFIX = DispatchSettings.WEBHOOK_PREFIX;
    /** A webhook's settings; any other field under its name is refused. */
    public static final Set<String> FIELDS = Set.of("url", "events", "secret", "max-attempts", "backoff", "timeout");
    static final int DEFAULT_MAX_ATTEMPTS = 8;
    static final double DEFAULT_BACKOFF_SECONDS = 5;
    static final double DEFAULT_TIMEOUT_SECONDS = 10;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

    @Inject
    DispatchSettings settings;

    private volatile Snapshot snapshot = Snapshot.NONE;
    private volatile String reported;

    /** Reads every webhook's settings; a bad one fails the deployment with the property named. */
    public void validate() {
        snapshot = new Snapshot(read());
    }

    /** Rereads the settings; a bad one is reported once (WARNING) and the last valid webhooks are kept. */
    public void refresh() {
        try {
            List<Webhook> now = read();
            if (!now.equals(snapshot.all)) {
                snapshot = new Snapshot(now);
                LOG.info(() -> "Webhooks now: " + (now.isEmpty() ? "none" : now.toString()));
            }
            reported = null;
        } catch (InvalidSettingException e) {
            if (!e.getMessage().equals(reported)) {
                reported = e.getMessage();
                LOG.warning(() -> e.getMessage() + "; the webhooks stay as they were");
            }
        }
    }

    /** These webhooks, as if read from the settings (engine tests). */
    void use(List<Webhook> hooks) {
        snapshot = new Snapshot(List.copyOf(hooks));
    }

    /** The webhooks told of {@code type}, by name (a snapshot: no configuration read). */
    public List<String> subscribers(EventType type) {
        return snapshot.byEvent.getOrDefault(type, List.of());
    }

    public List<Webhook> all() {
        return snapshot.all;
    }

    public Optional<Webhook> named(String name) {
        return Optional.ofNullable(snapshot.byName.get(name));
    }

    List<Webhook> read() {
        Map<String, Map<String, String>> fields = new LinkedHashMap<>();
        for (String property : settings.propertyNames(PREFIX)) {
            String rest = property.substring(PREFIX.length());
            int dot = rest.lastIndexOf('.');
            String name = dot < 0 ? rest : rest.substring(0, dot);
            String field = dot < 0 ? "" : rest.substring(dot + 1);
            if (!NAME.matcher(name).matches()) {
                throw new InvalidSettingException(property, settings.raw(property).orElse(""),
                        "a webhook's name of lower-case letters, digits, '-' and '_' (dispatch.webhook.<name>.url)");
            }
            if (!FIELDS.contains(field)) {
                throw new InvalidSettingException(property, settings.raw(property).orElse(""),
                        "one of dispatch.webhook." + name + "." + new TreeSet<>(FIELDS)
                                + NearestName.to(field, FIELDS).map(n -> " (did you mean " + n + "?)").orElse(""));
            }
            settings.raw(property).ifPresent(v -> fields.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(field, v.strip()));
        }
        List<Webhook> hooks = new ArrayList<>();
        new TreeSet<>(fields.keySet()).forEach(name -> hooks.add(parse(name, fields.get(name))));
        return List.copyOf(hooks);
    }

    private Webhook parse(String name, Map<String, String> f) {
        String base = PREFIX + name + ".";
        String rawUrl = f.get("url");
        if (rawUrl == null || rawUrl.isEmpty()) {
            throw new InvalidSettingException(base + "url", "", "the URL each event is posted to (http or https)");
        }
        URI url;
        try {
            url = new URI(rawUrl);
        } catch (URISyntaxException e) {
            throw new InvalidSettingException(base + "url", rawUrl, "an http or https URL (" + e.getReason() + ")");
        }
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new InvalidSettingException(base + "url", rawUrl, "an http or https URL with a host");
        }
        Set<EventType> events = EnumSet.noneOf(EventType.class);
        String rawEvents = f.getOrDefault("events", "*");
        for (String e : rawEvents.split(",")) {
            String wire = e.strip();
            if (wire.equals("*")) {
                events.addAll(EnumSet.allOf(EventType.class));
            } else if (!wire.isEmpty()) {
                events.add(EventType.ofWire(wire).orElseThrow(() -> new InvalidSettingException(base + "events", rawEvents,
                        "'*' or a comma-separated list of " + java.util.Arrays.stream(EventType.values()).map(EventType::wire).toList())));
            }
        }
        if (events.isEmpty()) {
            throw new InvalidSettingException(base + "events", rawEvents, "at least one event type, or '*'");
        }
        Optional<String> secret = Optional.ofNullable(f.get("secret")).filter(s -> !s.isEmpty());
        int attempts = positiveInt(base + "max-attempts", f.get("max-attempts"), DEFAULT_MAX_ATTEMPTS);
        Duration backoff = seconds(base + "backoff", f.get("backoff"), DEFAULT_BACKOFF_SECONDS);
        Duration timeout = seconds(base + "timeout", f.get("timeout"), DEFAULT_TIMEOUT_SECONDS);
        return new Webhook(name, url, Collections.unmodifiableSet(events), secret, attempts, backoff, timeout);
    }

    private static int positiveInt(String property, String raw, int defaultValue) {
        if (raw == null) {
            return defaultValue;
        }
        try {
            int v = Integer.parseInt(raw);
            if (v >= 1 && v <= 100) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // refused below
        }
        throw new InvalidSettingException(property, raw, "a whole number from 1 to 100");
    }

    private static Duration seconds(String property, String raw, double defaultSeconds) {
        if (raw == null) {
            return Duration.ofMillis(Math.round(defaultSeconds * 1000));
        }
        try {
            double v = Double.parseDouble(raw);
            if (v >= 0.01 && v <= 3600) {
                return Duration.ofMillis(Math.round(v * 1000));
            }
        } catch (NumberFormatException ignored) {
            // refused below
        }
        throw new InvalidSettingException(property, raw, "a number of seconds from 0.01 to 3600");
    }

    /** The webhooks as read once: by name and by the event types each is told of. */
    private record Snapshot(List<Webhook> all, Map<String, Webhook> byName, Map<EventType, List<String>> byEvent) {
        static final Snapshot NONE = new Snapshot(List.of());

        Snapshot(List<Webhook> all) {
            this(all, byName(all), byEvent(all));
        }

        private static Map<String, Webhook> byName(List<Webhook> all) {
            Map<String, Webhook> m = new LinkedHashMap<>();
            all.forEach(w -> m.put(w.name(), w));
            return Collections.unmodifiableMap(m);
        }

        private static Map<EventType, List<String>> byEvent(List<Webhook> all) {
            Map<EventType, List<String>> m = new EnumMap<>(EventType.class);
            for (Webhook w : all) {
                w.events().forEach(e -> m.computeIfAbsent(e, k -> new ArrayList<>()).add(w.name()));
            }
            m.replaceAll((k, v) -> List.copyOf(v));
            return Collections.unmodifiableMap(m);
        }
    }
}
