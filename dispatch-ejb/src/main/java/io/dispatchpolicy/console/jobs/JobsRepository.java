package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.PreparedStatement;
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

    // %1$s, %2$s, %3$s: each branch's condition; the tail decorates the page with partition and status.
    private static final String FIND = """
            WITH staged AS (
                SELECT s.id AS submission_id, 'STAGED' AS state, s.partition_id, s.job_name, s.restart_of AS execution_id,
                       s.staged_at, coalesce(s.parked_at, s.due_at, s.staged_at) AS last_event_at
                  FROM dispatch.staged_jobs s
                 WHERE (%1$s) AND s.id < ?
                 ORDER BY s.id DESC LIMIT ?),
            dead AS (
                SELECT d.submission_id, 'DEAD', d.partition_id, d.job_name, d.execution_id, NULL::timestamptz, d.died_at
                  FROM dispatch.dead_jobs d
                 WHERE (%2$s) AND d.submission_id < ?
                 ORDER BY d.submission_id DESC LIMIT ?),
            admitted AS (
                SELECT a.submission_id, 'ADMITTED', a.partition_id, coalesce(a.job_name, i.jobname), a.execution_id, a.staged_at,
                       a.admitted_at
                  FROM dispatch.admissions a
                  JOIN job_execution e ON e.jobexecutionid = a.execution_id
                  JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid
                 WHERE (%3$s) AND a.submission_id < ?
                   AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = a.submission_id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.submission_id = a.submission_id)
                 ORDER BY a.submission_id DESC LIMIT ?),
            page AS (
                SELECT * FROM staged UNION ALL SELECT * FROM dead UNION ALL SELECT * FROM admitted
                 ORDER BY submission_id DESC LIMIT ?)
            SELECT f.submission_id, f.state, p.policy_name, p.partition_key, p.lane, f.job_name, f.execution_id, e.batchstatus,
                   f.staged_at, f.last_event_at
              FROM page f
              LEFT JOIN dispatch.partitions p ON p.id = f.partition_id
              LEFT JOIN job_execution e ON e.jobexecutionid = f.execution_id
             ORDER BY f.submission_id DESC
            """;

    // The conditions of each key, per branch (staged, dead, admitted); '?' bound from the query's value.
    private static final String INSTANCE_OF = "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?)";
    private static final String EXECUTIONS_OF = "(SELECT jobexecutionid FROM job_execution WHERE jobinstanceid = " + INSTANCE_OF + ")";
    private static final String PARTITIONS_OF = "(SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?)";
    // JBeret stores parameters as "name = value" lines (BatchUtil.propertiesToString): the lines' array is indexed
    private static final String HAS_PARAMETER = "string_to_array(e.jobparameters, E'\\n') @> ARRAY[?::text]";

    private static final String STAGED_LIFE = """
            SELECT s.submitted_by, s.priority, s.due_at, s.attempt,
                   CASE WHEN s.parked_at IS NOT NULL THEN 'parked' WHEN s.due_at IS NOT NULL THEN 'scheduled' ELSE 'waiting' END,
                   s.last_error, s.job_parameters::text
              FROM dispatch.staged_jobs s WHERE s.id = ?
            """;

    private static final String ADMISSION = """
            SELECT a.admitted_at, n.node_name, a.attempt, a.submitted_by, a.priority, a.due_at, a.execution_id,
                   (SELECT p.id FROM dispatch.partitions p WHERE p.id = a.partition_id)
              FROM dispatch.admissions a LEFT JOIN dispatch.nodes n ON n.id = a.node_id
             WHERE a.submission_id = ?
            """;

    private static final String DEAD = """
            SELECT died_at, attempts, submitted_by, priority, coalesce(error, exit_status) FROM dispatch.dead_jobs WHERE submission_id = ?
            """;

    // Every execution of the instance the given one belongs to, oldest first, with its steps.
    private static final String EXECUTIONS = """
            SELECT e.jobexecutionid, e.batchstatus, e.exitstatus, e.createtime, e.starttime, e.endtime, e.jobparameters,
                   st.stepexecutionid, st.stepname, st.batchstatus, st.exitstatus, st.starttime, st.endtime, st.executionexception
              FROM job_execution e
              LEFT JOIN step_execution st ON st.jobexecutionid = e.jobexecutionid
             WHERE e.jobinstanceid = (SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?)
             ORDER BY e.jobexecutionid, st.stepexecutionid
            """;

    @Inject
    Jdbc jdbc;

    /** The search statement of a key, for tests that assert its plan. */
    public static String findSql(JobQuery.By by) {
        String[] where = conditions(by);
        return FIND.formatted(where[0], where[1], where[2]);
    }

    public List<JobRow> find(JobQuery q) {
        String sql = findSql(q.by());
        return jdbc.query(sql, (c, st) -> {
            int i = 1;
            for (int branch = 0; branch < 3; branch++) {
                i = bindKey(st, i, q, branch == 0);
                st.setLong(i++, q.before());
                st.setInt(i++, q.limit());
            }
            st.setInt(i, q.limit());
        }, rs -> new JobRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                (Long) rs.getObject(7), rs.getString(8), Jdbc.instant(rs.getTimestamp(9)), Jdbc.instant(rs.getTimestamp(10))));
    }

    /** Per key, the staged, dead and admitted branch's conditions: each binds the key's values once. */
    private static String[] conditions(JobQuery.By by) {
        return switch (by) {
            case SUBMISSION -> new String[] {"s.id = ?", "d.submission_id = ?", "a.submission_id = ?"};
            case EXECUTION -> new String[] {"s.restart_of IN " + EXECUTIONS_OF, "d.execution_id IN " + EXECUTIONS_OF,
                    "e.jobinstanceid = " + INSTANCE_OF};
            case JOB -> new String[] {"s.job_name = ?", "d.job_name = ?", "a.job_name = ?"};
            case PARTITION -> new String[] {"s.partition_id IN " + PARTITIONS_OF, "d.partition_id IN " + PARTITIONS_OF,
                    "a.partition_id IN " + PARTITIONS_OF};
            case PARAMETER -> new String[] {"s.job_parameters @> jsonb_build_object(?::text, ?::text)",
                    "EXISTS (SELECT 1 FROM job_execution e WHERE e.jobexecutionid = d.execution_id AND " + HAS_PARAMETER + ")",
                    HAS_PARAMETER};
        };
    }

    /** Binds the key's values of one branch; @param staged the staged branch (parameters as JSON there) */
    private static int bindKey(PreparedStatement st, int i, JobQuery q, boolean staged) throws SQLException {
        switch (q.by()) {
            case SUBMISSION, EXECUTION -> st.setLong(i++, q.id());
            case JOB -> st.setString(i++, q.value());
            case PARTITION -> {
                st.setString(i++, q.policy());
                st.setString(i++, q.value());
            }
            case PARAMETER -> {
                if (staged) {
                    st.setString(i++, q.parameterName());
                    st.setString(i++, q.parameterValue());
                } else {
                    st.setString(i++, q.parameterName() + " = " + q.parameterValue());
                }
            }
        }
        return i;
    }

    /** What a staged job's page shows beyond its row: who, priority, due, attempt, where it waits, error, parameters. */
    public Optional<Staged> staged(long submissionId) {
        return jdbc.query(STAGED_LIFE, (c, st) -> st.setLong(1, submissionId), rs -> new Staged(rs.getString(1), rs.getInt(2),
                Jdbc.instant(rs.getTimestamp(3)), rs.getInt(4), rs.getString(5), rs.getString(6), rs.getString(7))).stream().findFirst();
    }

    /** A staged job's page data: who, priority, due, attempt, waiting / scheduled / parked, its error, its parameters (JSON). */
    public record Staged(String submittedBy, int priority, java.time.Instant dueAt, int attempt, String waiting, String lastError,
                         String parameters) {
    }

    /** The partition of a staged job; empty when it is not staged (any more). */
    public Optional<Long> stagedPartition(long submissionId) {
        return jdbc.query("SELECT partition_id FROM dispatch.staged_jobs WHERE id = ?", (c, st) -> st.setLong(1, submissionId),
                rs -> rs.getLong(1)).stream().findFirst();
    }

    /** A job's latest admission: when, by which node, attempt, what its staging knew, its execution. */
    public Optional<Admission> admission(long submissionId) {
        return jdbc.query(ADMISSION, (c, st) -> st.setLong(1, submissionId), rs -> new Admission(Jdbc.instant(rs.getTimestamp(1)),
                rs.getString(2), rs.getInt(3), rs.getString(4), (Integer) rs.getObject(5), Jdbc.instant(rs.getTimestamp(6)),
                rs.getLong(7), (Long) rs.getObject(8))).stream().findFirst();
    }

    /** A job's admission record; {@code partitionId} null once its partition has been swept. */
    public record Admission(java.time.Instant admittedAt, String node, int attempt, String submittedBy, Integer priority,
                            java.time.Instant dueAt, long executionId, Long partitionId) {
    }

    /** A dead job: when it died, after how many attempts, who submitted it, its priority, its error. */
    public Optional<Dead> dead(long submissionId) {
        return jdbc.query(DEAD, (c, st) -> st.setLong(1, submissionId), rs -> new Dead(Jdbc.instant(rs.getTimestamp(1)),
                rs.getInt(2), rs.getString(3), rs.getInt(4), rs.getString(5))).stream().findFirst();
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
        jdbc.query(EXECUTIONS, (c, st) -> st.setLong(1, executionId), rs -> {
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
