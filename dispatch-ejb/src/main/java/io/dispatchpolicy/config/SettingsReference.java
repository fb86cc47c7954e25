package io.dispatchpolicy.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Every setting with its default and meaning, where the settings are defined: the settings reference of the guide is
 * generated from this class by the build ({@link #main}), and {@code SettingsReferenceTest} fails when a setting the
 * engine reads ({@link DispatchSettings#GLOBAL}, a policy's knobs, a schedule's or a webhook's fields) has no entry
 * here, or an entry names a setting that does not exist — so the reference cannot drift from the code.
 */
public final class SettingsReference {

    /**
     * One setting.
     *
     * @param name    the property (or, for a policy, schedule or webhook, its field; several comma-separated when they go together)
     * @param dflt    its default, as written in the reference ("" when the meaning says)
     * @param meaning what it does, AsciiDoc inline markup
     * @param applies when a change applies
     */
    public record Entry(String name, String dflt, String meaning, String applies) {
    }

    /** Server settings: resolved in standalone.xml at boot, from a system property or an environment variable. */
    public static final List<Entry> SERVER = List.of(
            new Entry("dispatch.db.url", "`jdbc:postgresql://localhost:5432/dispatch`", "JDBC URL (environment variable `DISPATCH_DB_URL`)", "boot"),
            new Entry("dispatch.db.user", "`postgres`", "user (environment variable `DISPATCH_DB_USER`)", "boot"),
            new Entry("dispatch.db.password", "`postgres`", "password (environment variable `DISPATCH_DB_PASSWORD`)", "boot"),
            new Entry("dispatch.db.max-pool-size", "`40`", "pool size (environment variable `DISPATCH_DB_MAX_POOL_SIZE`)", "boot"),
            new Entry("dispatch.batch.max-threads", "`10`", "batch threads (environment variable `DISPATCH_BATCH_MAX_THREADS`)", "boot"),
            new Entry("dispatch.tx.node-id", "`jboss.tx.node.id`, else `dispatch`", "transaction node id", "boot"));

    /** Engine settings: {@code <system-properties>}, read through MicroProfile Config. */
    public static final List<Entry> ENGINE = List.of(
            new Entry("dispatch.datasource", "`java:jboss/datasources/DispatchDS`", "JNDI name of the JTA datasource of the engine's tables; JBeret's job repository must use the same one", "next deployment"),
            new Entry("dispatch.partition-batch-size", "50", "partitions claimed per tick iteration", "next iteration"),
            new Entry("dispatch.admission-batch-size", "100", "jobs admitted per partition per iteration (per-policy override)", "next iteration"),
            new Entry("dispatch.tick-max-duration", "5", "seconds one tick keeps iterating", "next tick"),
            new Entry("dispatch.node-threads", "`auto`", "jobs this node may run at once, so it admits only what its threads can start (ADR 0027) and an admitted job does not wait in one node's pool while another node has a free thread: `auto` for what the batch thread pool can start (its size less one: JBeret keeps a thread for running jobs' steps, so a pool of 10 starts 9 jobs), a number, or `unlimited` (nothing counted: the pool queues what it cannot start); a bad value written at runtime is logged and the node keeps the last valid one", "every iteration"),
            new Entry("dispatch.node-queue-wait", "0.1", "seconds; beyond its threads, a node also queues as many jobs as end in this long at its recent rate of job ends, never more than 4 times its threads: jobs of milliseconds keep every thread fed between tick iterations, jobs of seconds queue none (ADR 0027); `off`: the threads alone", "every iteration"),
            new Entry("dispatch.tick-workers", "4", "tick loops on this node, side by side: each claims partitions of its own (`SKIP LOCKED`) and admits them; the tick budget and the capacity's top-up apply per iteration of each worker; nothing is shared in memory that could admit a job twice (a partition's admissions are counted under its row lock, a capacity under its policy's)", "next deployment"),
            new Entry("dispatch.shards", "every shard", "the shards this node admits, comma-separated (`*`: every shard); partitions of policies without `shardBy` are admitted by every node; a bad value written at runtime is logged and the node keeps what it admitted (ADR 0014)", "next tick"),
            new Entry("dispatch.idle-pause", "0.5", "seconds slept after an iteration that admitted nothing", "next iteration"),
            new Entry("dispatch.fairness-half-life", "60", "seconds; half-life of the decayed-admits average that orders partitions; `off` = claim order", "next iteration"),
            new Entry("dispatch.tick-admission-budget", "none", "slots admitted per iteration per policy, shared fairly: a job takes its cost (1 unless partitioned, ADR 0035) (per-policy override)", "next iteration"),
            new Entry("dispatch.admission-max-attempts", "5", "failed admissions of one staged job before it is parked", "next failure"),
            new Entry("dispatch.heartbeat-interval", "5", "seconds between this node's heartbeats; a node whose liveness lock is gone and whose heartbeat is two intervals old is gone", "next deployment"),
            new Entry("dispatch.inflight-stale-after", "300", "seconds without heartbeat after which a node is gone even though its liveness lock is held (a server cut off from the database; ≥ 2 × heartbeat)", "next recovery"),
            new Entry("dispatch.recovery-interval", "10", "seconds between recovery passes: other nodes' work, and this node's own orphaned rows (also one pass 1 s after boot and one when the database returns)", "next deployment"),
            new Entry("dispatch.sweep-interval", "60", "seconds between sweeps", "next deployment"),
            new Entry("dispatch.schedule-watchdog-interval", "60", "seconds between schedule watchdog passes (one node at a time; also one pass 1 s after boot): declarations applied, missing future occurrences staged (see \"Recurring schedules\")", "next deployment"),
            new Entry("dispatch.partition-inactive-after", "86400", "seconds after which an empty partition with nothing in flight and every throttle bucket full again is deleted, and an adaptive row not updated is reset (see \"What the sweeper forgets\")", "next sweep"),
            new Entry("dispatch.metrics-retention", "86400", "seconds tick samples, per-minute history and denial episodes are kept", "next sweep"),
            new Entry("dispatch.admission-retention", "604800", "seconds submission→execution records, and continuations once decided, are kept (older submission ids read UNKNOWN)", "next sweep"),
            new Entry("dispatch.dead-retention", "7776000", "seconds a dead job is kept for an operator to retry or discard (90 days); the sweep logs how many it deletes", "next sweep"),
            new Entry("dispatch.audit-retention", "7776000", "seconds audit log rows (operator actions) are kept (90 days)", "next sweep"),
            new Entry("dispatch.execution-retention", "604800", "seconds after which JBeret's job instances whose last execution COMPLETED are deleted with their executions, steps and submission records (`off`: kept forever); never one a staged retry, a dead job or an in-flight row may still restart (ADR 0015)", "next sweep"),
            new Entry("dispatch.failed-execution-retention", "2592000", "the same for instances whose last execution ended FAILED, STOPPED or ABANDONED (30 days)", "next sweep"),
            new Entry("dispatch.suspend-job-wait", "30", "seconds a suspending server (`:suspend`, and the suspend that begins `:shutdown`/`:reload`) lets this node's jobs finish before it stops them (`0`: at once); match it to the `suspend-timeout` you use (see \"Suspend and graceful shutdown\")", "next suspend"),
            new Entry("dispatch.adapter-throughput-target", "unset", "jobs/s the batch runtime should sustain; the console compares the admit rate to it", "next read"),
            new Entry("dispatch.recover-ungoverned", "`off`", "executions of **ungoverned** jobs that a gone server left STARTING/STARTED: `mark-failed` marks them FAILED (with their steps), `restart` also restarts each once here with its own parameters (ADR 0032; needs the datasource's `ApplicationName` that `dispatch.cli` sets)", "next recovery pass"),
            new Entry("dispatch.tick-enabled", "true", "`false` stops this node's tick (staging, running jobs, recovery go on)", "next iteration"),
            new Entry("dispatch.node-name", "`jboss.node.name`", "name of this server in the console and logs; a label only — each boot has its own identity, so two servers with one name never take each other's work (a WARNING at boot says so)", "next deployment"));

    /** A policy's knobs, {@code dispatch.policy.<policy>.<knob>}: read every iteration. */
    public static final List<Entry> POLICY = List.of(
            new Entry("admission-batch-size", "", "overrides the global one", "next iteration"),
            new Entry("tick-admission-budget", "", "overrides the global one (`none` for no budget)", "next iteration"),
            new Entry("capacity", "", "at most this many of the policy's jobs in flight, cluster-wide (`none`: no limit)", "next iteration"),
            new Entry("lanes", "", "the policy's lanes, `name:weight[:min[:lend=n][:borrow=n]],…` (`none`: no lanes)", "next iteration"),
            new Entry("default-lane", "", "the lane of jobs that name none", "next iteration"),
            new Entry("demote", "", "demotion rules, `threshold:seconds:lane,…` (`none`: no rules)", "next iteration"),
            new Entry("fairness-half-life", "", "seconds, or `off`", "next iteration"),
            new Entry("limits", "", "the named limits its jobs pass, `a,b` (`none`), replacing the declared references (ADR 0049)",
                    "next iteration"),
            new Entry("fairness-measure", "admissions", "what fairness counts: `admissions`, or `usage` (slot-seconds run, ADR 0048)",
                    "next iteration"),
            new Entry("retry-strategy", "", "`restage` or `bypass`", "next iteration"),
            new Entry("retry.interval", "", "automatic retries: seconds between a failure and its retry, `exponential` (30 s + n⁵ s) or `none`", "next iteration"),
            new Entry("retry.lane", "", "the lane retries wait in (a lane of the policy), or `none` for the lane their job waited in", "next iteration"),
            new Entry("retry.max-retries", "", "automatic retries: at most this many (0: a failed job is dead at once); alone, it means exponential", "next iteration"),
            new Entry("item-rate, item-burst", "", "the item throttle (below): items a second per partition (or `off`), and what a full bucket holds (at least 1; by default the rate); over what the code declares, read as each chunk step begins", "next iteration"),
            new Entry("unique-by, unique-window", "", "uniqueness keys (Controlling what gets queued, below): job parameters' names making the key (`a,b`; `none`: no key), and seconds a completed holder keeps its key (`off`: staged or running only)", "next iteration"),
            new Entry("expire-after", "", "seconds a job may wait once due before it expires unadmitted, or `off`", "next iteration"),
            new Entry("debounce-by, debounce-period, debounce-max-wait", "", "debounce: job parameters making the key (`none`: off), seconds a submission pushes its job back, seconds a burst may delay it at most (≥ the period; both at most a day)", "next iteration"),
            new Entry("backlog-cap, backlog-overflow", "", "at most this many staged per partition (`none`: no cap), and `reject`, `drop-oldest` or `keep-newest` for the overflow", "next iteration"),
            new Entry("cost, cost.<job>", "", "batch threads a job (of that name) takes at its widest, 1 to 10,000, over the declared cost and its job XML (A job's cost, below)", "next iteration"),
            new Entry("timeout, timeout.<job>", "", "seconds a job (of that name) may run from its start, or `off` (Timeouts, below)", "next iteration"),
            new Entry("progress-timeout, progress-timeout.<job>", "", "seconds a chunk step of a job (of that name) may go without a checkpoint, or `off`", "next iteration"),
            new Entry("gate.<gate-id>.<param>", "", "a constant for one gate parameter, replacing the declared constant or function: `throttle`: `rate`, `per` (s); `concurrency`: `max`, `full-backoff` (s); `adaptive-concurrency`: `initial-max`, `target-lag-ms`, `min`, `max`; `quota`: `max` (a raised or lowered quota counts at once against what the period has used)", "next iteration"),
            new Entry("jobs, partition-by, shard-by, gates", "", "declare a whole policy in standalone.xml (below)", "next iteration"));

    /** A webhook's fields, {@code dispatch.webhook.<name>.<field>} (ADR 0041): read within a second. */
    public static final List<Entry> WEBHOOK = List.of(
            new Entry("url", "(required)", "http or https; each event is one `POST` of JSON to it", "next delivery pass"),
            new Entry("events", "`*`", "comma-separated: `job.dead` (retries spent), `job.expired` (deadline passed unadmitted), `partition.paused` (by its job or an operator), `bulk-action.ended`", "next delivery pass"),
            new Entry("secret", "none", "each request then carries `Dispatch-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">`", "next delivery pass"),
            new Entry("max-attempts", "8", "attempts of one event before it is given up (1–100)", "next delivery pass"),
            new Entry("backoff", "5", "seconds after the first failed attempt; doubled after each, at most an hour", "next delivery pass"),
            new Entry("timeout", "10", "seconds for one attempt; slower is a failed attempt", "next delivery pass"));

    /** A named limit's settings, {@code dispatch.limit.<name>.<setting>} (ADR 0049): read by every admission. */
    public static final List<Entry> LIMIT = List.of(
            new Entry("key", "", "the context value whose value is the per-key limits' key (each referencing policy's context must carry it)", "next admission"),
            new Entry("concurrency", "", "slots in flight per key, over every policy that references the limit; `none` removes it", "next admission"),
            new Entry("rate", "", "jobs (tokens: a job takes its cost) per `per` per key, a bucket that starts full; `none` removes it", "next admission"),
            new Entry("per", "1", "seconds: the rate's period", "next admission"),
            new Entry("total-concurrency", "", "slots in flight in all", "next admission"),
            new Entry("total-rate", "", "jobs per `total-per` in all", "next admission"),
            new Entry("total-per", "1", "seconds: the total rate's period", "next admission"));

    /** A schedule's fields, {@code dispatch.schedule.<name>.<field>}: applied at the next schedule watchdog pass. */
    public static final List<Entry> SCHEDULE = List.of(
            new Entry("job", "", "the job XML each occurrence runs (through the policy governing it)", "next watchdog pass"),
            new Entry("param.<key>", "", "a job parameter of every occurrence", "next watchdog pass"),
            new Entry("anchor", "", "an instant, or a local date-time in the zone: the grid's origin (with `interval` and `unit`)", "next watchdog pass"),
            new Entry("interval", "", "every this many units, at least 1", "next watchdog pass"),
            new Entry("unit", "", "`seconds`, `minutes`, `hours` (elapsed time), `days`, `weeks`, `months`, `years` (calendar time in the zone)", "next watchdog pass"),
            new Entry("cron", "", "a cron expression, instead of `anchor`, `interval` and `unit`", "next watchdog pass"),
            new Entry("calendar", "", "the name of a calendar (`dispatch.calendar.<name>.*`, code or console) whose excluded times the schedule does not run at", "next watchdog pass"),
            new Entry("excluded", "skip", "with a calendar: `skip` an excluded run time (the next allowed one runs) or `move` it to the first allowed time after it (same time of day on the next allowed day, or a window's end)", "next watchdog pass"),
            new Entry("delay", "", "whole seconds after each run ended for good (after its retries) the next is due, never two at once: a fixed delay instead of a grid (not with `cron`, `anchor` or `catch-up`)", "next watchdog pass"),
            new Entry("zone", "UTC", "an IANA region id (fixed offsets are refused)", "next watchdog pass"),
            new Entry("priority", "0", "the occurrences' priority", "next watchdog pass"),
            new Entry("lane", "", "the occurrences' lane", "next watchdog pass"),
            new Entry("enabled", "true", "`false` stages no occurrence", "next watchdog pass"),
            new Entry("catch-up", "false", "after downtime, run the missed occurrences (with a limit) rather than the next one only", "next watchdog pass"),
            new Entry("run-as", "", "the user of the batch subsystem's realm every occurrence runs as, with the roles the realm gives them then", "next watchdog pass"),
            new Entry("deadline", "", "whole seconds after its run time an occurrence not admitted expires, or `off` (unset: the policy's `expire-after`)", "next watchdog pass"));

    /** A calendar's fields, {@code dispatch.calendar.<name>.<field>} (ADR 0053): applied at the next schedule watchdog pass. */
    public static final List<Entry> CALENDAR = List.of(
            new Entry("zone", "UTC", "an IANA region id its dates and times are read in", "next watchdog pass"),
            new Entry("dates", "", "whole days excluded once, comma-separated: `2027-03-29, 2027-05-06`", "next watchdog pass"),
            new Entry("yearly", "", "whole days excluded every year: `01-01, 05-01, 12-25`", "next watchdog pass"),
            new Entry("days", "", "weekdays excluded whole: `SATURDAY, SUNDAY` (or `sat, sun`)", "next watchdog pass"),
            new Entry("windows", "", "weekly windows excluded, each within a day: `MONDAY 22:00-24:00, FRIDAY 12:00-13:00`", "next watchdog pass"));

    private SettingsReference() {
    }

    /** Writes the reference page (AsciiDoc) to the file named by the first argument. */
    public static void main(String[] args) {
        try {
            Path out = Path.of(args[0]);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, asciidoc());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The reference page. */
    public static String asciidoc() {
        StringBuilder b = new StringBuilder();
        b.append("= Settings reference\n\n");
        b.append("Generated by the build from `io.dispatchpolicy.config.SettingsReference`, the class beside the code that reads the "
                + "settings; a test fails the build when a setting is missing here. A value the engine cannot use fails the "
                + "deployment with the property's name; one written live with `jboss-cli` is logged as a WARNING and the last "
                + "valid value stays. A `dispatch.*` name that names nothing is reported, never fatal (ADR 0023).\n\n");
        section(b, "Server", "Resolved in `standalone.xml` at boot: set the system property with `-D…` or the environment variable.",
                "property", SERVER, true);
        section(b, "Engine", "`<system-properties>` of the server, read through MicroProfile Config.", "property", ENGINE, true);
        section(b, "Policy knobs", "`dispatch.policy.<policy>.<knob>`, read every tick iteration: a change applies within a tick.",
                "knob", POLICY, false);
        section(b, "Schedules", "`dispatch.schedule.<name>.<field>`: a schedule declared in `standalone.xml`, or fields over a code "
                + "declaration's.", "field", SCHEDULE, true);
        section(b, "Calendars", "`dispatch.calendar.<name>.<field>` (ADR 0053): a calendar of excluded times declared in `standalone.xml`, "
                + "or fields over a code declaration's; a schedule names it with `calendar`.", "field", CALENDAR, true);
        section(b, "Webhooks", "`dispatch.webhook.<name>.<field>` (ADR 0041), read within a second.", "field", WEBHOOK, true);
        section(b, "Named limits", "`dispatch.limit.<name>.<setting>` (ADR 0049): a limit declared in `standalone.xml`, or values over a "
                + "code declaration's; a policy references limits with `limits`.", "setting", LIMIT, true);
        return b.toString();
    }

    private static void section(StringBuilder b, String title, String intro, String what, List<Entry> entries, boolean defaults) {
        b.append("== ").append(title).append("\n\n").append(intro).append("\n\n");
        b.append(defaults ? "[cols=\"2,1,5,1\",options=\"header\"]\n" : "[cols=\"2,5\",options=\"header\"]\n");
        b.append("|===\n|").append(what).append(defaults ? " |default |meaning |applies\n" : " |meaning\n");
        for (Entry e : entries) {
            b.append("\n|").append(cell("`" + e.name().replace(", ", "`, `") + "`"));
            if (defaults) {
                b.append(" |").append(cell(e.dflt()));
            }
            b.append(" |").append(cell(e.meaning()));
            if (defaults) {
                b.append(" |").append(cell(e.applies()));
            }
            b.append('\n');
        }
        b.append("|===\n\n");
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
