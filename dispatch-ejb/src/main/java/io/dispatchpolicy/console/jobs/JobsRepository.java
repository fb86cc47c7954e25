package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Jobs view's reads. A job is in exactly one of three places: staged ({@code staged_jobs}: waiting,
 * scheduled, parked, or a restart waiting), dead ({@code dead_jobs}), or admitted ({@code admissions},
 * which also keeps the submission of a staged restart or a dead job: those rows are left out of the
 * admitted branch). Each branch is a keyset page off an index (the key's own, then the submission id:
 * {@code admissions (partition_id | job_name, submission_id)}, JBeret's parameter lines for a parameter),
 * so a page costs the same on the millionth job as on the first.
 */
@ApplicationScoped
public class JobsRepository {

    // {{staged}}, {{dead}}, {{admitted}}: each branch's condition (FIND_BY); the tail decorates the page
    // with partition and status.
    private static final Sql FIND = Sql.template("""
            WITH staged AS (
                SELECT s.id AS submission_id, 'STAGED' AS state, s.partition_id, s.job_name, s.restart_of AS execution_id,
                       s.staged_at, coalesce(s.parked_at, s.due_at, s.staged_at) AS last_event_at,
                       NULL::text AS policy, NULL::text AS partition_key, NULL::text AS lane
                  FROM dispatch.staged_jobs s
                 WHERE ({{staged}}) AND s.id < :before
                 ORDER BY s.id DESC LIMIT :limit),
            dead AS (
                SELECT d.submission_id, 'DEAD', d.partition_id, d.job_name, d.execution_id, NULL::timestamptz, d.died_at,
                       NULL, NULL, NULL
                  FROM dispatch.dead_jobs d
                 WHERE ({{dead}}) AND d.submission_id < :before
                 ORDER BY d.submission_id DESC LIMIT :limit),
            discarded AS (
                SELECT x.submission_id, CASE WHEN x.reason = 'expired' THEN 'EXPIRED' ELSE 'DISCARDED' END, NULL::bigint, x.job_name,
                       NULL::bigint, x.staged_at, x.discarded_at, x.policy_name, x.partition_key, x.lane
                  FROM dispatch.discarded_jobs x
                 WHERE ({{discarded}}) AND x.submission_id < :before
                 ORDER BY x.submission_id DESC LIMIT :limit),
            admitted AS (
                SELECT a.submission_id, 'ADMITTED', a.partition_id, coalesce(a.job_name, i.jobname), a.execution_id, a.staged_at,
                       a.admitted_at, NULL, NULL, NULL
                  FROM dispatch.admissions a
                  JOIN job_execution e ON e.jobexecutionid = a.execution_id
                  JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid
                 WHERE ({{admitted}}) AND a.submission_id < :before
                   AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = a.submission_id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.submission_id = a.submission_id)
                 ORDER BY a.submission_id DESC LIMIT :limit),
            page AS (
                SELECT * FROM staged UNION ALL SELECT * FROM dead UNION ALL SELECT * FROM discarded UNION ALL SELECT * FROM admitted
                 ORDER BY submission_id DESC LIMIT :limit)
            SELECT f.submission_id, f.state, coalesce(p.policy_name, f.policy), coalesce(p.partition_key, f.partition_key),
                   coalesce(p.lane, f.lane), f.job_name, f.execution_id, e.batchstatus, f.staged_at, f.last_event_at
              FROM page f
              LEFT JOIN dispatch.partitions p ON p.id = f.partition_id
              LEFT JOIN job_execution e ON e.jobexecutionid = f.execution_id
             ORDER BY f.submission_id DESC
            """);

    // Fragments of the keys' conditions, named from the query's values (keyParams).
    private static final String INSTANCE_OF = "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = :execution)";
    private static final String EXECUTIONS_OF = "(SELECT jobexecutionid FROM job_execution WHERE jobinstanceid = {{instanceOf}})";
    private static final String PARTITIONS_OF = "(SELECT id FROM dispatch.partitions WHERE policy_name = :policy AND partition_key = :partitionKey)";
    // JBeret stores parameters as "name = value" lines (BatchUtil.propertiesToString): the lines' array is indexed
    private static final String KEYED = "(SELECT submission_id FROM dispatch.submission_keys WHERE policy_name = :policy "
            + "AND kind IN ('debounce', 'unique') AND key = :key)";
    // A group's members (ADR 0052), off the followers' group index.
    private static final String MEMBERS = "(SELECT after_submission FROM dispatch.followers WHERE group_id = :group AND kind = 'group')";
    private static final String HAS_PARAMETER = "string_to_array(e.jobparameters, E'\\n') @> ARRAY[:parameterLine::text]";

    /** Per key, FIND with the staged, dead and admitted branch's conditions. */
    private static final Map<JobQuery.By, Sql> FIND_BY = Map.of(
            JobQuery.By.SUBMISSION, FIND.with("staged", "s.id = :submission").with("dead", "d.submission_id = :submission")
                    .with("admitted", "a.submission_id = :submission").with("discarded", "x.submission_id = :submission"),
            JobQuery.By.KEY, FIND.with("staged", "s.id IN {{keyed}}").with("dead", "d.submission_id IN {{keyed}}")
                    .with("admitted", "a.submission_id IN {{keyed}}").with("discarded", "x.submission_id IN {{keyed}}").with("keyed", KEYED),
            JobQuery.By.GROUP, FIND.with("staged", "s.id IN {{members}}").with("dead", "d.submission_id IN {{members}}")
                    .with("admitted", "a.submission_id IN {{members}}").with("discarded", "x.submission_id IN {{members}}")
                    .with("members", MEMBERS),
            JobQuery.By.EXECUTION, FIND.with("staged", "s.restart_of IN {{executionsOf}}").with("dead", "d.execution_id IN {{executionsOf}}")
                    .with("admitted", "e.jobinstanceid = {{instanceOf}}").with("executionsOf", EXECUTIONS_OF).with("instanceOf", INSTANCE_OF)
                    .with("discarded", "false"),
            JobQuery.By.JOB, FIND.with("staged", "s.job_name = :jobName").with("dead", "d.job_name = :jobName")
                    .with("admitted", "a.job_name = :jobName").with("discarded", "x.job_name = :jobName"),
            JobQuery.By.PARTITION, FIND.with("staged", "s.partition_id IN {{partitionsOf}}").with("dead", "d.partition_id IN {{partitionsOf}}")
                    .with("admitted", "a.partition_id IN {{partitionsOf}}").with("partitionsOf", PARTITIONS_OF)
                    .with("discarded", "x.policy_name = :policy AND x.partition_key = :partitionKey"),
            JobQuery.By.PARAMETER, FIND.with("staged", "s.job_parameters @> jsonb_build_object(:parameterName::text, :parameterValue::text)")
                    .with("dead", "EXISTS (SELECT 1 FROM job_execution e WHERE e.jobexecutionid = d.execution_id AND {{hasParameter}})")
                    .with("admitted", "{{hasParameter}}").with("hasParameter", HAS_PARAMETER)
                    .with("discarded", "x.job_parameters @> jsonb_build_object(:parameterName::text, :parameterValue::text)"));

    // The lists by state (JobQuery.STATES): one branch each. Running drives from the in-flight rows, failed from the
    // failed executions' partial index (JobRepositoryIndexes), so neither walks every admission of a million.
    private static final String RAN_LATELY_AND_FAILED = "a.execution_id IN (SELECT x.jobexecutionid FROM job_execution x "
            + "WHERE x.batchstatus = 'FAILED' AND x.endtime > clock_timestamp() - interval '1 hour')";
    private static final Map<String, Sql> BY_STATE = Map.of(
            "staged", FIND.with("staged", "true").with("dead", "false").with("admitted", "false").with("discarded", "false"),
            "running", FIND.with("staged", "false").with("dead", "false").with("discarded", "false")
                    .with("admitted", "a.submission_id IN (SELECT f.submission_id FROM dispatch.inflight_jobs f)"),
            "failed", FIND.with("staged", "false").with("dead", "false").with("discarded", "false").with("admitted", RAN_LATELY_AND_FAILED),
            "dead", FIND.with("staged", "false").with("dead", "true").with("admitted", "false").with("discarded", "false"));

    // How many jobs each list by state holds now: the partitions' counters, the in-flight rows, the failed index, the dead.
    private static final Sql STATE_COUNTS = Sql.of("""
            SELECT (SELECT coalesce(sum(pending_count + scheduled_count + parked_count), 0) FROM dispatch.partitions),
                   (SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id > 0),
                   (SELECT count(*) FROM dispatch.admissions a
                     WHERE a.execution_id IN (SELECT x.jobexecutionid FROM job_execution x
                                               WHERE x.batchstatus = 'FAILED' AND x.endtime > clock_timestamp() - interval '1 hour')
                       AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = a.submission_id)
                       AND NOT EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.submission_id = a.submission_id)),
                   (SELECT count(*) FROM dispatch.dead_jobs)
            """);

    private static final Sql STAGED_LIFE = Sql.of("""
            SELECT s.submitted_by, s.priority, s.due_at, s.attempt,
                   CASE WHEN s.parked_at IS NOT NULL THEN 'parked' WHEN s.due_at IS NOT NULL THEN 'scheduled' ELSE 'waiting' END,
                   s.last_error, s.job_parameters::text, s.cost
              FROM dispatch.staged_jobs s WHERE s.id = :submission
            """);

    private static final Sql STAGED_PARTITION = Sql.of("SELECT partition_id FROM dispatch.staged_jobs WHERE id = :submission");

    private static final Sql ADMISSION = Sql.of("""
            SELECT a.admitted_at, n.node_name, a.attempt, a.submitted_by, a.priority, a.due_at, a.execution_id,
                   (SELECT p.id FROM dispatch.partitions p WHERE p.id = a.partition_id),
                   coalesce(i.run_timeout_ms, a.run_timeout_ms), coalesce(i.progress_timeout_ms, a.progress_timeout_ms),
                   i.execution_id IS NOT NULL, i.timeout_reason, i.stop_requested_at, i.stop_delivered_at,
                   coalesce(r.node_name, i.node_id::text), a.cost
              FROM dispatch.admissions a LEFT JOIN dispatch.nodes n ON n.id = a.node_id
              LEFT JOIN dispatch.inflight_jobs i ON i.execution_id = a.execution_id
              LEFT JOIN dispatch.nodes r ON r.id = i.node_id
             WHERE a.submission_id = :submission
            """);

    // A job's uniqueness or debounce key, and the submissions it absorbed (ADR 0036).
    private static final Sql KEY = Sql.of("""
            SELECT kind, key, absorbed FROM dispatch.submission_keys WHERE submission_id = :submission ORDER BY kind LIMIT 1
            """);

    private static final Sql DISCARDED = Sql.of("""
            SELECT reason, detail, discarded_at, submitted_by, priority, job_parameters::text FROM dispatch.discarded_jobs
             WHERE submission_id = :submission
            """);

    private static final Sql DEAD = Sql.of("""
            SELECT died_at, attempts, submitted_by, priority, coalesce(error, exit_status) FROM dispatch.dead_jobs WHERE submission_id = :submission
            """);

    // Every execution of the instance the given one belongs to, oldest first, with its steps.
    private static final Sql EXECUTIONS = Sql.of("""
            SELECT e.jobexecutionid, e.batchstatus, e.exitstatus, e.createtime, e.starttime, e.endtime, e.jobparameters,
                   st.stepexecutionid, st.stepname, st.batchstatus, st.exitstatus, st.starttime, st.endtime, st.executionexception
              FROM job_execution e
              LEFT JOIN step_execution st ON st.jobexecutionid = e.jobexecutionid
             WHERE e.jobinstanceid = (SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = :execution)
             ORDER BY e.jobexecutionid, st.stepexecutionid
            """);

    @Inject
    Jdbc jdbc;

    /** The search statement of a key, for tests that assert its plan. */
    public static String findSql(JobQuery.By by) {
        return FIND_BY.get(by).jdbc();
    }

    /** How many jobs each list by state holds now, in {@link JobQuery#STATES}' order. */
    public Map<String, Long> stateCounts() {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        jdbc.query(STATE_COUNTS, Params.of(), rs -> {
            for (int i = 0; i < JobQuery.STATES.size(); i++) {
                counts.put(JobQuery.STATES.get(i), rs.getLong(i + 1));
            }
            return null;
        });
        return counts;
    }

    public List<JobRow> find(JobQuery q) {
        return jdbc.query(q.by() == JobQuery.By.STATE ? BY_STATE.get(q.value()) : FIND_BY.get(q.by()), keyParams(q).bigint("before", q.before()).integer("limit", q.limit()),
                rs -> new JobRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                        (Long) rs.getObject(7), rs.getString(8), Jdbc.instant(rs.getTimestamp(9)), Jdbc.instant(rs.getTimestamp(10))));
    }

    /** The values of the key's conditions (FIND_BY); the staged branch matches parameters as JSON, the others as JBeret's lines. */
    private static Params keyParams(JobQuery q) {
        Params params = Params.of();
        return switch (q.by()) {
            case SUBMISSION -> params.bigint("submission", q.id());
            case KEY -> params.text("policy", q.policy()).text("key", q.value());
            case EXECUTION -> params.bigint("execution", q.id());
            case JOB -> params.text("jobName", q.value());
            case PARTITION -> params.text("policy", q.policy()).text("partitionKey", q.value());
            case PARAMETER -> params.text("parameterName", q.parameterName()).text("parameterValue", q.parameterValue())
                    .text("parameterLine", q.parameterName() + " = " + q.parameterValue());
            case STATE -> params;
            case GROUP -> params.bigint("group", q.id());
        };
    }

    /** What a staged job's page shows beyond its row: who, priority, due, attempt, where it waits, error, parameters. */
    public Optional<Staged> staged(long submissionId) {
        return jdbc.query(STAGED_LIFE, Params.of().bigint("submission", submissionId), rs -> new Staged(rs.getString(1), rs.getInt(2),
                Jdbc.instant(rs.getTimestamp(3)), rs.getInt(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getInt(8)))
                .stream().findFirst();
    }

    /**
     * A staged job's page data: who, priority, due, attempt, waiting / scheduled / parked, its error, its parameters
     * (JSON), its cost in batch threads (ADR 0035).
     */
    public record Staged(String submittedBy, int priority, java.time.Instant dueAt, int attempt, String waiting, String lastError,
                         String parameters, int cost) {
    }

    /** The partition of a staged job; empty when it is not staged (any more). */
    public Optional<Long> stagedPartition(long submissionId) {
        return jdbc.query(STAGED_PARTITION, Params.of().bigint("submission", submissionId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** A job's latest admission: when, by which node, attempt, what its staging knew, its execution. */
    public Optional<Admission> admission(long submissionId) {
        return jdbc.query(ADMISSION, Params.of().bigint("submission", submissionId), rs -> new Admission(Jdbc.instant(rs.getTimestamp(1)),
                rs.getString(2), rs.getInt(3), rs.getString(4), (Integer) rs.getObject(5), Jdbc.instant(rs.getTimestamp(6)),
                rs.getLong(7), (Long) rs.getObject(8), new JobTimeouts((Long) rs.getObject(9), (Long) rs.getObject(10)),
                rs.getBoolean(11), rs.getString(12), Jdbc.instant(rs.getTimestamp(13)), Jdbc.instant(rs.getTimestamp(14)),
                rs.getString(15), rs.getInt(16))).stream().findFirst();
    }

    /**
     * A job's admission record; {@code partitionId} null once its partition has been swept. {@code timeouts}: those
     * in force while it runs (ADR 0030), else the submission's own; {@code timedOut}: why the watchdog stopped it, while
     * its thread has not let go yet; while it is in flight, when an operator asked it to stop, when the node running
     * it ({@code runsOn}) handed that to its JBeret (ADR 0031); its cost in batch threads (ADR 0035).
     */
    public record Admission(java.time.Instant admittedAt, String node, int attempt, String submittedBy, Integer priority,
                            java.time.Instant dueAt, long executionId, Long partitionId, JobTimeouts timeouts, boolean inFlight,
                            String timedOut, java.time.Instant stopRequestedAt, java.time.Instant stopDeliveredAt,
                            String runsOn, int cost) {
    }

    /** A dead job: when it died, after how many attempts, who submitted it, its priority, its error. */
    public Optional<Dead> dead(long submissionId) {
        return jdbc.query(DEAD, Params.of().bigint("submission", submissionId), rs -> new Dead(Jdbc.instant(rs.getTimestamp(1)),
                rs.getInt(2), rs.getString(3), rs.getInt(4), rs.getString(5))).stream().findFirst();
    }

    /** The key a submission holds ({@code unique} or {@code debounce}) and how many submissions it absorbed. */
    public Optional<Key> key(long submissionId) {
        return jdbc.query(KEY, Params.of().bigint("submission", submissionId), rs -> new Key(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .stream().findFirst();
    }

    public record Key(String kind, String key, long absorbed) {
    }

    /** A job a submission control discarded: why ({@code expired}, {@code dropped}, {@code replaced}), when, and what it was. */
    public Optional<Discarded> discarded(long submissionId) {
        return jdbc.query(DISCARDED, Params.of().bigint("submission", submissionId), rs -> new Discarded(rs.getString(1), rs.getString(2),
                rs.getTimestamp(3).toInstant(), rs.getString(4), rs.getInt(5), rs.getString(6))).stream().findFirst();
    }

    public record Discarded(String reason, String detail, java.time.Instant at, String submittedBy, int priority, String parameters) {
    }

    /** A dead job's record. */
    public record Dead(java.time.Instant diedAt, int attempts, String submittedBy, int priority, String error) {
    }

    /**
     * Every execution of the job instance {@code executionId} belongs to, oldest first, with their steps;
     * each restart's reason is how the execution before it ended.
     *
     * @return the executions, and the latest one's parameters as JBeret holds them (or null)
     */
    public Executions executions(long executionId) {
        Map<Long, List<StepRecord>> steps = new LinkedHashMap<>();
        Map<Long, Object[]> rows = new LinkedHashMap<>();
        jdbc.query(EXECUTIONS, Params.of().bigint("execution", executionId), rs -> {
            long id = rs.getLong(1);
            rows.computeIfAbsent(id, k -> {
                try {
                    return new Object[] {rs.getString(2), rs.getString(3), Jdbc.instant(rs.getTimestamp(4)),
                            Jdbc.instant(rs.getTimestamp(5)), Jdbc.instant(rs.getTimestamp(6)), rs.getString(7)};
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            List<StepRecord> of = steps.computeIfAbsent(id, k -> new ArrayList<>());
            long step = rs.getLong(8);
            if (!rs.wasNull()) {
                of.add(new StepRecord(step, rs.getString(9), rs.getString(10), rs.getString(11), Jdbc.instant(rs.getTimestamp(12)),
                        Jdbc.instant(rs.getTimestamp(13)), rs.getString(14)));
            }
            return id;
        });
        List<ExecutionRecord> executions = new ArrayList<>();
        String parameters = null;
        ExecutionRecord previous = null;
        for (Map.Entry<Long, Object[]> e : rows.entrySet()) {
            Object[] r = e.getValue();
            ExecutionRecord record = new ExecutionRecord(e.getKey(), (String) r[0], (String) r[1], (java.time.Instant) r[2],
                    (java.time.Instant) r[3], (java.time.Instant) r[4], reason(previous), List.copyOf(steps.get(e.getKey())));
            executions.add(record);
            parameters = (String) r[5];
            previous = record;
        }
        return new Executions(executions, parameters);
    }

    /** A job's executions, and the latest one's parameters. */
    public record Executions(List<ExecutionRecord> executions, String parameters) {
    }

    /** Why an execution ran: the first run, or a restart after the one before ended so. */
    private static String reason(ExecutionRecord previous) {
        if (previous == null) {
            return "submitted";
        }
        String failure = previous.steps().stream().map(StepRecord::failure).filter(f -> f != null && !f.isBlank())
                .reduce((a, b) -> b).map(f -> ": " + firstLine(f)).orElse("");
        return switch (previous.batchStatus() == null ? "" : previous.batchStatus()) {
            case "FAILED" -> "restart after execution " + previous.executionId() + " failed"
                    + (previous.exitStatus() == null || previous.exitStatus().equals("FAILED") ? "" : " (" + previous.exitStatus() + ")")
                    + failure;
            case "STOPPED" -> "restart after execution " + previous.executionId() + " was stopped";
            case "ABANDONED" -> "restart after execution " + previous.executionId() + " was abandoned (its node stopped)";
            default -> "restart after execution " + previous.executionId() + " (" + previous.batchStatus() + ")";
        };
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        String line = nl < 0 ? text : text.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
