package io.dispatchpolicy.schedule;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The declared schedules: CDI producers of {@link Schedule} in any bean archive the engine sees, and
 * {@code dispatch.schedule.<name>.<field>} properties (standalone.xml, changeable live with jboss-cli).
 * A property replaces the field of a declaration of the same name; a name only properties declare needs
 * {@code job} and a mode. Read again on every watchdog pass, so a live change takes effect within one
 * {@code dispatch.schedule-watchdog-interval}.
 */
@ApplicationScoped
public class ScheduleRegistry {

    public static final List<String> FIELDS = List.of("job", "anchor", "interval", "unit", "cron", "zone", "priority", "lane",
            "enabled", "catch-up", "run-as", "deadline", "delay", "calendar", "excluded");

    @Inject
    @Any
    Instance<Schedule> declared;

    @Inject
    DispatchSettings settings;

    /** A schedule as declared now, where, and the fingerprint of that declaration. */
    public record Declared(ScheduleDefinition definition, String source, String hash) {
    }

    /**
     * Every declared schedule, by name, validated.
     *
     * @throws ScheduleDeclarationException for an invalid code declaration, or a property that makes one
     *                                      invalid (the message names the schedule and the field)
     * @throws InvalidSettingException      for an unknown property name
     */
    public Map<String, Declared> declared() {
        Map<String, ScheduleDefinition> byName = new LinkedHashMap<>();
        for (Schedule schedule : declared) {
            ScheduleDefinition d = ScheduleDefinition.of(schedule).validate(); // build() checked it; so does registration
            if (byName.putIfAbsent(d.name(), d) != null) {
                throw new ScheduleDeclarationException("Two schedules are named '" + d.name() + "'");
            }
        }
        Map<String, Map<String, String>> properties = properties();
        Map<String, Declared> result = new TreeMap<>();
        for (String name : union(byName.keySet(), properties.keySet())) {
            ScheduleDefinition code = byName.get(name);
            Map<String, String> props = properties.getOrDefault(name, Map.of());
            ScheduleDefinition d = props.isEmpty() ? code : overlay(name, code, props).validate();
            result.put(name, new Declared(d, code != null ? StoredSchedule.CODE : StoredSchedule.CONFIG, hash(d)));
        }
        return result;
    }

    @Inject
    OccurrenceStaging staging;

    /**
     * Fails the deployment on an invalid declaration or property, naming it: also a job XML the engine
     * cannot see, a lane the governing policy lacks, parameters a submission would be refused for.
     */
    public void validateSettings() {
        declared().values().forEach(d -> staging.checked(d.definition()));
    }

    private static java.util.Set<String> union(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.Set<String> all = new java.util.TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** {@code dispatch.schedule.<name>.<field>} values, grouped by schedule name. */
    private Map<String, Map<String, String>> properties() {
        return settings.byName(DispatchSettings.SCHEDULE_PREFIX,
                field -> FIELDS.contains(field) || field.startsWith("param.") && field.length() > 6,
                "dispatch.schedule.<name>.<field> with a field among " + FIELDS + " or param.<key>");
    }

    /** The code declaration (or nothing) with the properties' fields put over it. */
    static ScheduleDefinition overlay(String name, ScheduleDefinition code, Map<String, String> p) {
        ScheduleDefinition base = code != null ? code
                : new ScheduleDefinition(name, null, Map.of(), null, null, null, null, null, null, null, false, true);
        ZoneId zone = p.containsKey("zone") ? ScheduleDefinition.parseZone(name, p.get("zone")) : base.zone();
        Map<String, String> parameters = new TreeMap<>(base.parameters());
        p.forEach((k, v) -> {
            if (k.startsWith("param.")) {
                parameters.put(k.substring("param.".length()), v);
            }
        });
        String cron = p.containsKey("cron") ? blankToNull(p.get("cron")) : base.cron();
        Instant anchor = p.containsKey("anchor") ? anchor(name, p.get("anchor"), zone) : base.anchor();
        Integer interval = p.containsKey("interval") ? integer(name, "interval", p.get("interval")) : base.intervalCount();
        var unit = p.containsKey("unit") ? ScheduleDefinition.parseUnit(name, p.get("unit")) : base.unit();
        java.time.Duration delay = p.containsKey("delay") ? delay(name, p.get("delay")) : base.delay();
        String calendar = p.containsKey("calendar") ? blankToNull(p.get("calendar")) : base.calendar();
        boolean gridByProperty = p.containsKey("cron") && cron != null || p.containsKey("anchor");
        if (p.containsKey("cron") && cron != null && !p.containsKey("anchor")) {
            // switching a declaration to cron by property: its anchor fields no longer apply
            anchor = null;
            interval = null;
            unit = null;
        } else if (p.containsKey("anchor") && !p.containsKey("cron")) {
            cron = null;
        }
        if (p.containsKey("delay") && delay != null && !gridByProperty) {
            // switching a declaration to a fixed delay by property: its grid fields no longer apply
            cron = null;
            anchor = null;
            interval = null;
            unit = null;
        } else if (gridByProperty && !p.containsKey("delay")) {
            delay = null;
        }
        return new ScheduleDefinition(name, p.getOrDefault("job", base.jobName()), parameters, anchor, interval, unit, cron, zone,
                p.containsKey("priority") ? integer(name, "priority", p.get("priority")) : base.priority(),
                p.containsKey("lane") ? blankToNull(p.get("lane")) : base.lane(),
                p.containsKey("catch-up") ? bool(name, "catch-up", p.get("catch-up")) : base.catchUp(),
                p.containsKey("enabled") ? bool(name, "enabled", p.get("enabled")) : base.enabled(),
                p.containsKey("run-as") ? blankToNull(p.get("run-as")) : base.runAs(),
                p.containsKey("deadline") ? deadline(name, p.get("deadline")) : base.deadline(), delay,
                calendar, p.containsKey("excluded") ? io.dispatchpolicy.spi.Excluded.parse(name, p.get("excluded"))
                        : calendar == null ? null : base.excluded());
    }

    /** Whole seconds after each run's end (fixed-delay mode); blank: none (the schedule runs on its grid). */
    static java.time.Duration delay(String name, String text) {
        return seconds(name, text, false, "delay must be whole seconds after each run ended");
    }

    /** Whole seconds after each run time, as a policy's {@code expire-after}; blank or {@code off}: none of its own. */
    static java.time.Duration deadline(String name, String text) {
        return seconds(name, text, true, "deadline must be whole seconds after each run time, or off");
    }

    private static java.time.Duration seconds(String name, String text, boolean offAllowed, String rule) {
        String t = text.strip();
        if (t.isEmpty() || offAllowed && t.equalsIgnoreCase("off")) {
            return null;
        }
        try {
            return java.time.Duration.ofSeconds(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new ScheduleDeclarationException("Schedule '" + name + "': " + rule + " (was '" + text + "')");
        }
    }

    /** An ISO instant ({@code 2025-01-01T10:00:00Z}) or a local date-time in the schedule's zone ({@code 2025-01-01T10:00}). */
    static Instant anchor(String name, String text, ZoneId zone) {
        String t = text.strip();
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return ScheduleDefinition.anchorAt(name, LocalDateTime.parse(t), zone);
            } catch (DateTimeParseException e) {
                throw new ScheduleDeclarationException("Schedule '" + name + "': anchor '" + text
                        + "' is neither an instant (2025-01-01T10:00:00Z) nor a local date-time (2025-01-01T10:00)");
            }
        }
    }

    private static Integer integer(String name, String field, String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            throw new ScheduleDeclarationException("Schedule '" + name + "': " + field + " must be a whole number (was '" + text + "')");
        }
    }

    private static boolean bool(String name, String field, String text) {
        return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ScheduleDeclarationException("Schedule '" + name + "': " + field
                    + " must be true or false (was '" + text + "')");
        };
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** What the declaration says, as a fingerprint: a change of it is applied; anything else stays as operators left it. */
    static String hash(ScheduleDefinition d) {
        Map<String, Object> all = new LinkedHashMap<>(d.snapshot());
        all.put("enabled", d.enabled());
        return fingerprint(JsonCodec.writeNested(all));
    }

    /** A declaration's fingerprint (schedules, calendars): the watchdog applies a declaration again only when it changes. */
    static String fingerprint(String canonical) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
