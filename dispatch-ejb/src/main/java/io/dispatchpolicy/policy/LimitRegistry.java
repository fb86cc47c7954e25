package io.dispatchpolicy.policy;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The named limits (ADR 0049): those declared as CDI producers of {@link Limit}, and those declared entirely in
 * standalone.xml ({@code dispatch.limit.<name>.*}); each read with its standalone.xml values over the declared ones
 * on every call, so they change live like every other knob. Which limits a policy references: its declaration's,
 * or {@code dispatch.policy.<p>.limits} ({@code a,b}; {@code none}).
 */
@ApplicationScoped
public class LimitRegistry {

    public static final String PREFIX = "dispatch.limit.";
    /** Every setting of a limit: {@code dispatch.limit.<name>.<setting>}; {@code none} removes a declared value. */
    public static final List<String> SETTINGS = List.of("key", "concurrency", "rate", "per", "total-concurrency", "total-rate",
            "total-per");

    @Inject
    @Any
    Instance<Limit> declared;

    @Inject
    DispatchSettings settings;

    private Map<String, Limit> byName;

    @PostConstruct
    void index() {
        Map<String, Limit> names = new TreeMap<>();
        for (Limit limit : declared) {
            if (names.putIfAbsent(limit.name(), limit) != null) {
                throw new PolicyDeclarationException("Two limits are named '" + limit.name() + "'");
            }
        }
        for (String property : settings.propertyNames(PREFIX)) {
            String rest = property.substring(PREFIX.length());
            int dot = rest.lastIndexOf('.');
            if (dot > 0 && SETTINGS.contains(rest.substring(dot + 1)) && !names.containsKey(rest.substring(0, dot))) {
                String name = rest.substring(0, dot);
                try {
                    names.put(name, configured(name, null));
                } catch (InvalidSettingException e) {
                    throw new PolicyDeclarationException("Limit '" + name + "' declared in standalone.xml: " + e.getMessage());
                }
            }
        }
        byName = java.util.Collections.unmodifiableMap(names);
    }

    /** Every limit's name, sorted. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** The limit of this name with its standalone.xml values now; empty when none is declared. */
    public Optional<Limit> limit(String name) {
        Limit base = byName.get(name);
        return base == null ? Optional.empty() : Optional.of(configured(name, base));
    }

    /**
     * The limits the policy's jobs pass now, in its order: its declaration's, or its {@code limits} setting's.
     *
     * @throws InvalidSettingException naming the property whose value names no limit or cannot be used
     */
    public List<Limit> referencedBy(Policy p) {
        List<String> names = namesReferencedBy(p);
        List<Limit> limits = new ArrayList<>(names.size());
        names.forEach(name -> limits.add(limit(name).orElseThrow()));
        return limits;
    }

    /**
     * The names of the limits the policy references now, without reading their values.
     *
     * @throws InvalidSettingException naming the property whose value names no limit
     */
    public List<String> namesReferencedBy(Policy p) {
        String property = PolicySettings.PREFIX + p.name() + ".limits";
        Optional<String> text = settings.raw(property).map(String::strip);
        List<String> names = text.isEmpty() ? p.limits()
                : text.get().isEmpty() || text.get().equalsIgnoreCase("none") ? List.of()
                : Arrays.stream(text.get().split(",")).map(String::strip).toList();
        for (String name : names) {
            if (!byName.containsKey(name)) {
                throw new InvalidSettingException(text.isPresent() ? property : PREFIX + name, text.orElse(name),
                        "the names of declared limits " + byName.keySet());
            }
        }
        return names;
    }

    /** What is wrong with the references of every policy's declaration: a name no limit has. Null when nothing. */
    public String declarationProblem(java.util.Collection<Policy> policies) {
        for (Policy p : policies) {
            for (String name : p.limits()) {
                if (!byName.containsKey(name)) {
                    return "Policy '" + p.name() + "' references limit '" + name + "', which no Limit producer nor "
                            + PREFIX + name + ".* declares" + io.dispatchpolicy.config.NearestName.to(name, byName.keySet())
                            .map(n -> ": did you mean '" + n + "'?").orElse("");
                }
            }
        }
        return null;
    }

    /** What is wrong with the name of a {@code dispatch.limit.*} property; empty when it names a limit's setting. */
    public Optional<String> nameProblem(String property) {
        String rest = property.substring(PREFIX.length());
        int dot = rest.lastIndexOf('.');
        String setting = dot < 0 ? rest : rest.substring(dot + 1);
        if (dot > 0 && SETTINGS.contains(setting) && byName.containsKey(rest.substring(0, dot))) {
            return Optional.empty();
        }
        return Optional.of(dot <= 0 || !SETTINGS.contains(setting)
                ? "a limit has no setting '" + setting + "' (one of " + SETTINGS + ")"
                : "no limit is named '" + rest.substring(0, dot) + "'");
    }

    /** {@code base} (null for none) with its standalone.xml values over it, checked as a declaration is. */
    private Limit configured(String name, Limit base) {
        String prefix = PREFIX + name + ".";
        String key = text(prefix + "key").orElse(base == null ? null : base.key());
        Integer concurrency = count(prefix + "concurrency", base == null ? null : base.concurrency());
        Double rate = number(prefix + "rate", base == null ? null : base.rate());
        Duration per = period(prefix + "per", base == null || base.per() == null ? Duration.ofSeconds(1) : base.per());
        Integer total = count(prefix + "total-concurrency", base == null ? null : base.totalConcurrency());
        Double totalRate = number(prefix + "total-rate", base == null ? null : base.totalRate());
        Duration totalPer = period(prefix + "total-per", base == null || base.totalPer() == null ? Duration.ofSeconds(1) : base.totalPer());
        try {
            return new Limit(name, key, concurrency, rate, rate == null ? null : per, total, totalRate, totalRate == null ? null : totalPer);
        } catch (PolicyDeclarationException e) {
            throw new InvalidSettingException(prefix + "*", "", "values that make a limit: " + e.getMessage());
        }
    }

    private Optional<String> text(String property) {
        return settings.raw(property).map(String::strip).map(v -> v.isEmpty() || v.equalsIgnoreCase("none") ? null : v);
    }

    private Integer count(String property, Integer declared) {
        if (settings.raw(property).isEmpty()) {
            return declared;
        }
        java.util.OptionalInt value = settings.optionalPositiveInt(property); // "none" removes the declared value
        return value.isPresent() ? Integer.valueOf(value.getAsInt()) : null;
    }

    private Double number(String property, Double declared) {
        Optional<String> raw = settings.raw(property).map(String::strip);
        if (raw.isEmpty()) {
            return declared;
        }
        if (raw.get().isEmpty() || raw.get().equalsIgnoreCase("none")) {
            return null;
        }
        double value = settings.number(property).orElseThrow(() -> new InvalidSettingException(property, raw.get(), "a number >= 0"));
        if (value < 0) {
            throw new InvalidSettingException(property, raw.get(), "a number >= 0");
        }
        return value;
    }

    private Duration period(String property, Duration declared) {
        return settings.raw(property).isPresent() ? settings.seconds(property, 1) : declared;
    }
}
