package io.dispatchpolicy.policy;

import io.dispatchpolicy.config.DispatchSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Names of {@code dispatch.*} properties that name nothing — a mistyped policy, knob, gate parameter or
 * setting — written in standalone.xml or live with jboss-cli (ADR 0023). Such a property is ignored; it
 * fails neither the deployment (a failed deployment over a server-wide property would fail WildFly's
 * rollback to the previous one too) nor a tick. Each is logged once as a WARNING with the nearest
 * declared name, at boot and within a second of being written (the node's maintenance checks every
 * second), shown on the dashboard while it stands, and logged once more (INFO) when it is gone.
 */
@ApplicationScoped
public class SettingNames {

    private static final Logger LOG = Logger.getLogger(SettingNames.class.getName());

    /** How often the node looks for new wrong names. */
    public static final long CHECK_EVERY_MS = 1_000;

    @Inject
    DispatchSettings settings;

    @Inject
    PolicyRegistry policies;

    private volatile Map<String, String> reported = Map.of();

    /** Looks at every {@code dispatch.*} name now; logs what appeared and what went since the last look. */
    public synchronized Map<String, String> check() {
        Map<String, String> now = new LinkedHashMap<>();
        for (String name : settings.propertyNames(DispatchSettings.PREFIX)) {
            Optional<String> problem = name.startsWith(PolicySettings.PREFIX) || name.startsWith(LimitRegistry.PREFIX)
                    ? policies.nameProblem(name) : settings.nameProblem(name);
            problem.ifPresent(p -> now.put(name, p));
        }
        now.forEach((name, problem) -> {
            if (!problem.equals(reported.get(name))) {
                LOG.warning(() -> "Setting " + name + " is ignored: " + problem);
            }
        });
        reported.keySet().stream().filter(name -> !now.containsKey(name))
                .forEach(name -> LOG.info(() -> "Setting " + name + " is gone or now names something: no longer ignored"));
        reported = Collections.unmodifiableMap(now);
        return reported;
    }

    /** The wrong names as last looked at, each with what is wrong and the nearest declared name. */
    public Map<String, String> current() {
        return reported;
    }
}
