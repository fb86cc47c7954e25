package io.dispatchpolicy.config;

import io.dispatchpolicy.domain.shard.ShardScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every engine setting, with its default. Values are read on each use rather than cached, so a
 * property changed with {@code jboss-cli} applies from the next tick without a redeploy;
 * {@link #validate()} runs at deployment so a bad value fails the deployment loudly instead of being
 * replaced by a default. The typed readers are public so per-policy settings
 * ({@code dispatch.policy.<name>.<knob>}) parse the same way.
 */
@ApplicationScoped
public class DispatchSettings {

    public static final String PREFIX = "dispatch.";
    public static final String PARTITION_BATCH_SIZE = "dispatch.partition-batch-size";
    public static final String ADMISSION_BATCH_SIZE = "dispatch.admission-batch-size";
    public static final String TICK_MAX_DURATION = "dispatch.tick-max-duration";
    public static final String IDLE_PAUSE = "dispatch.idle-pause";
    public static final String FAIRNESS_HALF_LIFE = "dispatch.fairness-half-life";
    public static final String TICK_ADMISSION_BUDGET = "dispatch.tick-admission-budget";
    public static final String ADMISSION_MAX_ATTEMPTS = "dispatch.admission-max-attempts";
    public static final String HEARTBEAT_INTERVAL = "dispatch.heartbeat-interval";
    public static final String INFLIGHT_STALE_AFTER = "dispatch.inflight-stale-after";
    public static final String RECOVERY_INTERVAL = "dispatch.recovery-interval";
    public static final String SWEEP_INTERVAL = "dispatch.sweep-interval";
    public static final String PARTITION_INACTIVE_AFTER = "dispatch.partition-inactive-after";
    public static final String METRICS_RETENTION = "dispatch.metrics-retention";
    public static final String ADMISSION_RETENTION = "dispatch.admission-retention";
    public static final String DEAD_RETENTION = "dispatch.dead-retention";
    public static final String AUDIT_RETENTION = "dispatch.audit-retention";
    public static final String ADAPTER_THROUGHPUT_TARGET = "dispatch.adapter-throughput-target";
    public static final String NODE_NAME = "dispatch.node-name";
    public static final String TICK_ENABLED = "dispatch.tick-enabled";
    public static final String NODE_THREADS = "dispatch.node-threads";
    public static final String NODE_QUEUE_WAIT = "dispatch.node-queue-wait";
    public static final String DATASOURCE = "dispatch.datasource";
    public static final String SCHEDULE_WATCHDOG_INTERVAL = "dispatch.schedule-watchdog-interval";
    public static final String TICK_WORKERS = "dispatch.tick-workers";
    public static final String SHARDS = "dispatch.shards";
    public static final String EXECUTION_RETENTION = "dispatch.execution-retention";
    public static final String FAILED_EXECUTION_RETENTION = "dispatch.failed-execution-retention";
    public static final String SUSPEND_JOB_WAIT = "dispatch.suspend-job-wait";
    public static final String RECOVER_UNGOVERNED = "dispatch.recover-ungoverned";
    /** Tick workers per node when nothing sets them (the guide, "Tick workers"). */
    public static final int DEFAULT_TICK_WORKERS = 4;
    /** Prefix of the schedules declared in standalone.xml: {@code dispatch.schedule.<name>.<field>}. */
    public static final String SCHEDULE_PREFIX = "dispatch.schedule.";

    /** {@code dispatch.calendar.<name>.<field>}: a calendar of excluded times (ADR 0053). */
    public static final String CALENDAR_PREFIX = "dispatch.calendar.";
    /** Prefix of the webhooks' settings: {@code dispatch.webhook.<name>.<field>} (the notify package reads them). */
    public static final String WEBHOOK_PREFIX = "dispatch.webhook.";

    /** Every global setting; anything else under {@code dispatch.} must be a policy setting. */
    /** Fairness half-life when nothing sets one (global, per policy, or in the console's view of a partition). */
    public static final double DEFAULT_FAIRNESS_HALF_LIFE_SECONDS = 60;

    public static final Set<String> GLOBAL = Set.of(PARTITION_BATCH_SIZE, ADMISSION_BATCH_SIZE, TICK_MAX_DURATION,
            IDLE_PAUSE, FAIRNESS_HALF_LIFE, TICK_ADMISSION_BUDGET, ADMISSION_MAX_ATTEMPTS, HEARTBEAT_INTERVAL,
            INFLIGHT_STALE_AFTER, RECOVERY_INTERVAL, SWEEP_INTERVAL, PARTITION_INACTIVE_AFTER, METRICS_RETENTION,
            ADMISSION_RETENTION, DEAD_RETENTION, AUDIT_RETENTION, ADAPTER_THROUGHPUT_TARGET, NODE_NAME, TICK_ENABLED, DATASOURCE,
            SCHEDULE_WATCHDOG_INTERVAL, TICK_WORKERS, SHARDS,
            EXECUTION_RETENTION, FAILED_EXECUTION_RETENTION, SUSPEND_JOB_WAIT, NODE_THREADS, NODE_QUEUE_WAIT, RECOVER_UNGOVERNED);

    /** Settings of the server rather than the engine (wildfly-config's datasource and thread pool). */
    public static final Set<String> SERVER = Set.of("dispatch.db.url", "dispatch.db.user", "dispatch.db.password",
            "dispatch.db.max-pool-size", "dispatch.batch.max-threads", "dispatch.tx.node-id");

    @Inject
    Config config;

    /** The default of {@link #DATASOURCE}: the datasource {@code wildfly-config} creates. */
    public static final String DEFAULT_DATASOURCE = "java:jboss/datasources/DispatchDS";

    /**
     * JNDI name of the JTA datasource the engine's tables live in; JBeret's JDBC job repository must
     * use the same one (checked at boot), so staging, admission and JBeret's INSERTs commit together.
     */
    public String datasource() {
        return raw(DATASOURCE).map(String::strip).filter(name -> !name.isEmpty()).orElse(DEFAULT_DATASOURCE);
    }

    /** Partitions claimed per tick iteration. */
    public int partitionBatchSize() {
        return positiveInt(PARTITION_BATCH_SIZE, 50);
    }

    /** Jobs admitted per partition per tick iteration, unless the policy overrides it. */
    public int admissionBatchSize() {
        return positiveInt(ADMISSION_BATCH_SIZE, 100);
    }

    /** How long one tick keeps iterating. */
    public Duration tickMaxDuration() {
        return seconds(TICK_MAX_DURATION, 5);
    }

    /** Pause between tick iterations that admitted nothing. */
    public Duration idlePause() {
        return seconds(IDLE_PAUSE, 0.5);
    }

    /** Half-life of the decayed-admits average; empty when fairness is off. */
    public Optional<Duration> fairnessHalfLife() {
        return optionalSeconds(FAIRNESS_HALF_LIFE, DEFAULT_FAIRNESS_HALF_LIFE_SECONDS);
    }

    /** {@link #nodeThreads()}'s value for {@code auto}: what the batch thread pool can start. */
    public static final int NODE_THREADS_AUTO = 0;

    /**
     * The jobs this node may run at once, so it admits only what its threads can start (ADR 0027): a
     * number, {@code auto} — the default — for what the batch pool can start ({@link #NODE_THREADS_AUTO}),
     * or {@code unlimited} (empty) to admit without counting threads (the pool queues what it cannot start).
     */
    public OptionalInt nodeThreads() {
        Optional<String> raw = raw(NODE_THREADS).map(String::strip);
        if (raw.isEmpty() || raw.get().equalsIgnoreCase("auto")) {
            return OptionalInt.of(NODE_THREADS_AUTO);
        }
        if (raw.get().equalsIgnoreCase("unlimited")) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(parsePositiveInt(NODE_THREADS, raw.get()));
        } catch (InvalidSettingException e) {
            throw new InvalidSettingException(NODE_THREADS, raw.get(), "a whole number >= 1, auto or unlimited");
        }
    }

    /**
     * The wait in this node's pool that admission may queue jobs for beyond its threads (ADR 0027): jobs
     * shorter than a tick iteration would otherwise leave threads idle until the next one. {@code off}: none.
     */
    public Duration nodeQueueWait() {
        return optionalSeconds(NODE_QUEUE_WAIT, 0.1).orElse(Duration.ZERO);
    }

    /** Admissions per tick iteration per policy, shared fairly; empty for none. */
    public OptionalInt tickAdmissionBudget() {
        return optionalPositiveInt(TICK_ADMISSION_BUDGET);
    }

    /** Failed admissions of one staged job before it is parked. */
    public int admissionMaxAttempts() {
        return positiveInt(ADMISSION_MAX_ATTEMPTS, 5);
    }

    /** How often this node refreshes its heartbeat row. */
    public Duration heartbeatInterval() {
        return seconds(HEARTBEAT_INTERVAL, 5);
    }

    /**
     * A node whose liveness lock is not held is gone once its heartbeat is this old (two heartbeat
     * intervals: a live node whose session broke takes its lock again within one).
     */
    public Duration livenessGrace() {
        return heartbeatInterval().multipliedBy(2);
    }

    /**
     * A node whose heartbeat is older than this is gone even though its liveness lock is held (it may be
     * cut off from the database while its session looks alive): its in-flight jobs are released and restarted.
     */
    public Duration inflightStaleAfter() {
        return seconds(INFLIGHT_STALE_AFTER, 300);
    }

    /** How often a node looks for work of dead nodes. */
    public Duration recoveryInterval() {
        return seconds(RECOVERY_INTERVAL, 10);
    }

    /** How often the sweeper deletes old samples, admissions and idle partitions. */
    public Duration sweepInterval() {
        return seconds(SWEEP_INTERVAL, 60);
    }

    /**
     * How long a suspending server lets this node's running jobs finish before it stops them (they are
     * restarted through their policy on resume); {@code 0} stops them at once.
     */
    public Duration suspendJobWait() {
        Optional<String> raw = raw(SUSPEND_JOB_WAIT).map(String::strip);
        if (raw.isPresent() && raw.get().equals("0")) {
            return Duration.ZERO;
        }
        double value = raw.isEmpty() ? 30 : positiveNumber(SUSPEND_JOB_WAIT, raw.get(), "a number of seconds >= 0");
        return Duration.ofNanos(Math.round(value * 1e9));
    }

    /** Tick loops on this node, each claiming partitions of its own (SKIP LOCKED); read at deployment. */
    public int tickWorkers() {
        return positiveInt(TICK_WORKERS, DEFAULT_TICK_WORKERS);
    }

    /** How often a schedule watchdog pass runs (one node at a time): it repairs what chaining could not. */
    public Duration scheduleWatchdogInterval() {
        return seconds(SCHEDULE_WATCHDOG_INTERVAL, 60);
    }

    /** An empty partition with no admission for this long is deleted (its gate state with it). */
    public Duration partitionInactiveAfter() {
        return seconds(PARTITION_INACTIVE_AFTER, 86_400);
    }

    /** Tick samples are kept this long. */
    public Duration metricsRetention() {
        return seconds(METRICS_RETENTION, 86_400);
    }

    /** Audit log rows (operator actions) are kept this long (default 90 days). */
    public Duration auditRetention() {
        return seconds(AUDIT_RETENTION, 90 * 86_400);
    }

    /** Submission-to-execution records are kept this long; older submission ids resolve to UNKNOWN. */
    public Duration admissionRetention() {
        return seconds(ADMISSION_RETENTION, 7 * 86_400);
    }

    /**
     * JBeret's job instances whose last execution COMPLETED are deleted this long after it ended, with
     * their executions, steps and partitions (ADR 0015); empty ({@code off}) keeps them forever.
     */
    public Optional<Duration> executionRetention() {
        return optionalSeconds(EXECUTION_RETENTION, 7 * 86_400);
    }

    /** As {@link #executionRetention()}, for instances whose last execution did not complete (default 30 days). */
    public Optional<Duration> failedExecutionRetention() {
        return optionalSeconds(FAILED_EXECUTION_RETENTION, 30 * 86_400);
    }

    /** How long a dead job is kept for an operator to retry or discard (default 90 days). */
    public Duration deadRetention() {
        return seconds(DEAD_RETENTION, 90 * 86_400);
    }

    /** Jobs per second the batch runtime is expected to sustain; the console shows admit rate against it. */
    public OptionalDouble adapterThroughputTarget() {
        Optional<String> raw = raw(ADAPTER_THROUGHPUT_TARGET).filter(s -> !s.isBlank());
        if (raw.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(positiveNumber(ADAPTER_THROUGHPUT_TARGET, raw.get(), "jobs per second > 0"));
    }

    /** Stable name of this server; a restarted server with the same name takes back its own jobs at once. */
    public String nodeName() {
        return config.getOptionalValue(NODE_NAME, String.class)
                .or(() -> Optional.ofNullable(System.getProperty("jboss.node.name")))
                .filter(s -> !s.isBlank())
                .orElse("node");
    }

    /**
     * The shards this node's tick admits (ADR 0014): {@code dispatch.shards}, shard names separated by
     * commas; unset, empty or {@code *}: every shard. Partitions of unsharded policies are admitted by
     * every node.
     */
    public ShardScope shards() {
        String raw = raw(SHARDS).orElse("");
        try {
            return ShardScope.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(SHARDS, raw, e.getMessage());
        }
    }

    /** False stops this node's tick (staging, running jobs and recovery go on): maintenance without undeploying. */
    public boolean tickEnabled() {
        return bool(TICK_ENABLED, true);
    }

    /** What becomes of executions of ungoverned jobs stranded by a node that is gone (ADR 0032). */
    public enum UngovernedRecovery { OFF, MARK_FAILED, RESTART }

    /** {@code dispatch.recover-ungoverned}: {@code off} (the default), {@code mark-failed} or {@code restart}. */
    public UngovernedRecovery recoverUngoverned() {
        String raw = raw(RECOVER_UNGOVERNED).map(String::strip).orElse("off");
        return switch (raw.toLowerCase(java.util.Locale.ROOT)) {
            case "off" -> UngovernedRecovery.OFF;
            case "mark-failed" -> UngovernedRecovery.MARK_FAILED;
            case "restart" -> UngovernedRecovery.RESTART;
            default -> throw new InvalidSettingException(RECOVER_UNGOVERNED, raw, "off, mark-failed or restart");
        };
    }

    private boolean bool(String property, boolean defaultValue) {
        String raw = raw(property).orElse(Boolean.toString(defaultValue)).strip();
        if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
            throw new InvalidSettingException(property, raw, "true or false");
        }
        return Boolean.parseBoolean(raw);
    }

    /**
     * Reads every global setting once, so a bad value fails the deployment with the property's name,
     * and refuses unknown {@code dispatch.*} names outside {@code dispatch.policy.}, which are typos.
     */
    public void validate() {
        partitionBatchSize();
        admissionBatchSize();
        tickMaxDuration();
        idlePause();
        fairnessHalfLife();
        tickAdmissionBudget();
        admissionMaxAttempts();
        Duration heartbeat = heartbeatInterval();
        Duration stale = inflightStaleAfter();
        if (stale.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new InvalidSettingException(INFLIGHT_STALE_AFTER, raw(INFLIGHT_STALE_AFTER).orElse(""),
                    "at least twice " + HEARTBEAT_INTERVAL + " (" + heartbeat.toSeconds() + " s)");
        }
        recoveryInterval();
        sweepInterval();
        scheduleWatchdogInterval();
        tickWorkers();
        shards();
        partitionInactiveAfter();
        metricsRetention();
        admissionRetention();
        deadRetention();
        auditRetention();
        executionRetention();
        failedExecutionRetention();
        suspendJobWait();
        nodeThreads();
        nodeQueueWait();
        adapterThroughputTarget();
        tickEnabled();
        recoverUngoverned();
        // An unknown name fails nothing: it is reported (SettingNames), since a name written live that failed
        // the next deployment would also fail WildFly's rollback to the previous one (ADR 0023).
    }

    /**
     * What is wrong with the name of a {@code dispatch.*} property that is neither a policy's nor a
     * schedule's: empty when it is a known setting.
     */
    public Optional<String> nameProblem(String name) {
        if (GLOBAL.contains(name) || SERVER.contains(name) || name.startsWith("dispatch.policy.") || name.startsWith(SCHEDULE_PREFIX)
                || name.startsWith(CALENDAR_PREFIX) || name.startsWith(WEBHOOK_PREFIX)
                || name.startsWith("dispatch.test.") || name.startsWith("dispatch.build.")) {
            return Optional.empty();
        }
        return Optional.of("no setting has this name" + NearestName.to(name, GLOBAL).map(n -> ": did you mean " + n + "?").orElse(""));
    }

    /**
     * Every configured property name starting with {@code prefix}. System properties are listed
     * directly too: MicroProfile Config may list names as they were when it started, while values
     * written since (with {@code jboss-cli}) are read live.
     */
    public Set<String> propertyNames(String prefix) {
        Set<String> names = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix)) {
                names.add(name);
            }
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(prefix)) {
                names.add(name);
            }
        }
        return names;
    }

    public Optional<String> raw(String property) {
        return config.getOptionalValue(property, String.class);
    }

    /**
     * The {@code <prefix><name>.<field>} properties (schedules, calendars), grouped by name: field to value.
     *
     * @throws InvalidSettingException for a property without a name or with a field {@code knownField} does not accept,
     *                                 saying {@code expected}
     */
    public java.util.Map<String, java.util.Map<String, String>> byName(String prefix, java.util.function.Predicate<String> knownField,
                                                                       String expected) {
        java.util.Map<String, java.util.Map<String, String>> byName = new java.util.TreeMap<>();
        for (String property : propertyNames(prefix)) {
            String rest = property.substring(prefix.length());
            int dot = rest.indexOf('.');
            String field = dot < 0 ? "" : rest.substring(dot + 1);
            if (dot <= 0 || !knownField.test(field)) {
                throw new InvalidSettingException(property, raw(property).orElse(""), expected);
            }
            byName.computeIfAbsent(rest.substring(0, dot), k -> new java.util.HashMap<>()).put(field, raw(property).orElse(""));
        }
        return byName;
    }

    public int positiveInt(String property, int defaultValue) {
        Optional<String> raw = raw(property);
        return raw.isEmpty() ? defaultValue : parsePositiveInt(property, raw.get());
    }

    public OptionalInt optionalPositiveInt(String property) {
        Optional<String> raw = raw(property).map(String::strip);
        if (raw.isEmpty() || raw.get().isEmpty() || raw.get().equalsIgnoreCase("none")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(parsePositiveInt(property, raw.get()));
    }

    public Duration seconds(String property, double defaultSeconds) {
        Optional<String> raw = raw(property);
        double value = raw.isEmpty() ? defaultSeconds : positiveNumber(property, raw.get(), "a number of seconds > 0");
        return Duration.ofNanos(Math.round(value * 1e9));
    }

    /** Seconds, or {@code off} for none. */
    public Optional<Duration> optionalSeconds(String property, double defaultSeconds) {
        Optional<String> raw = raw(property).map(String::strip);
        if (raw.isPresent() && raw.get().equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        return Optional.of(seconds(property, defaultSeconds));
    }

    /** A finite number, unrestricted in sign (gate parameters validate their own range). */
    public OptionalDouble number(String property) {
        Optional<String> raw = raw(property);
        if (raw.isEmpty()) {
            return OptionalDouble.empty();
        }
        try {
            double value = Double.parseDouble(raw.get().strip());
            if (Double.isFinite(value)) {
                return OptionalDouble.of(value);
            }
        } catch (NumberFormatException ignored) {
            // reported below with the property's name
        }
        throw new InvalidSettingException(property, raw.get(), "a number");
    }

    private static int parsePositiveInt(String property, String raw) {
        try {
            int value = Integer.parseInt(raw.strip());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the property's name
        }
        throw new InvalidSettingException(property, raw, "a whole number >= 1");
    }

    private static double positiveNumber(String property, String raw, String expected) {
        double value;
        try {
            value = Double.parseDouble(raw.strip());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new InvalidSettingException(property, raw, expected);
        }
        return value;
    }
}
