package io.dispatchpolicy.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.Optional;

/**
 * Every engine setting, with its default. Values are read on each use rather than cached, so a
 * property changed with {@code jboss-cli} applies from the next tick without a redeploy;
 * {@link #validate()} runs at deployment so a bad value fails the deployment loudly instead of being
 * replaced by a default.
 */
@ApplicationScoped
public class DispatchSettings {

    public static final String PARTITION_BATCH_SIZE = "dispatch.partition-batch-size";
    public static final String ADMISSION_BATCH_SIZE = "dispatch.admission-batch-size";
    public static final String TICK_MAX_DURATION = "dispatch.tick-max-duration";
    public static final String HEARTBEAT_INTERVAL = "dispatch.heartbeat-interval";
    public static final String INFLIGHT_STALE_AFTER = "dispatch.inflight-stale-after";
    public static final String RECOVERY_INTERVAL = "dispatch.recovery-interval";
    public static final String NODE_NAME = "dispatch.node-name";
    public static final String DEMO_ENABLED = "dispatch.demo.enabled";

    @Inject
    Config config;

    /** Partitions claimed per tick iteration. */
    public int partitionBatchSize() {
        return positiveInt(PARTITION_BATCH_SIZE, 50);
    }

    /** Jobs admitted per partition per tick iteration, unless the policy overrides it. */
    public int admissionBatchSize() {
        return positiveInt(ADMISSION_BATCH_SIZE, 100);
    }

    /** How long one tick keeps iterating while there is work. */
    public Duration tickMaxDuration() {
        return seconds(TICK_MAX_DURATION, 5);
    }

    /** How often this node refreshes its heartbeat row. */
    public Duration heartbeatInterval() {
        return seconds(HEARTBEAT_INTERVAL, 10);
    }

    /** A node whose heartbeat is older than this is dead: its jobs are recovered by others. */
    public Duration inflightStaleAfter() {
        return seconds(INFLIGHT_STALE_AFTER, 300);
    }

    /** How often a node looks for admitted jobs whose runner never started. */
    public Duration recoveryInterval() {
        return seconds(RECOVERY_INTERVAL, 30);
    }

    /** Stable name of this server; a restarted server with the same name takes back its own jobs at once. */
    public String nodeName() {
        return config.getOptionalValue(NODE_NAME, String.class)
                .or(() -> Optional.ofNullable(System.getProperty("jboss.node.name")))
                .filter(s -> !s.isBlank())
                .orElse("node");
    }

    public boolean demoEnabled() {
        String raw = raw(DEMO_ENABLED).orElse("false").strip();
        if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
            throw new InvalidSettingException(DEMO_ENABLED, raw, "true or false");
        }
        return Boolean.parseBoolean(raw);
    }

    /** Reads every setting once, so a bad value fails the deployment with the property's name. */
    public void validate() {
        partitionBatchSize();
        admissionBatchSize();
        tickMaxDuration();
        Duration heartbeat = heartbeatInterval();
        Duration stale = inflightStaleAfter();
        if (stale.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new InvalidSettingException(INFLIGHT_STALE_AFTER, raw(INFLIGHT_STALE_AFTER).orElse(""),
                    "at least twice " + HEARTBEAT_INTERVAL + " (" + heartbeat.toSeconds() + " s)");
        }
        recoveryInterval();
        demoEnabled();
    }

    private Optional<String> raw(String property) {
        return config.getOptionalValue(property, String.class);
    }

    private int positiveInt(String property, int defaultValue) {
        Optional<String> raw = raw(property);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(raw.get().strip());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the property's name
        }
        throw new InvalidSettingException(property, raw.get(), "a whole number >= 1");
    }

    private Duration seconds(String property, double defaultSeconds) {
        Optional<String> raw = raw(property);
        double value = defaultSeconds;
        if (raw.isPresent()) {
            try {
                value = Double.parseDouble(raw.get().strip());
            } catch (NumberFormatException e) {
                value = Double.NaN;
            }
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new InvalidSettingException(property, raw.get(), "a number of seconds > 0");
            }
        }
        return Duration.ofMillis(Math.round(value * 1000));
    }
}
