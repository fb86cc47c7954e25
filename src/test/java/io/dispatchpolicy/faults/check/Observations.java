package io.dispatchpolicy.faults.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the fault database with plain JDBC: a new connection per read, because the database may have
 * restarted since the last one.
 */
public final class Observations {

    /** Opens a connection to the fault database. */
    @FunctionalInterface
    public interface Connector {
        Connection connect() throws SQLException;
    }

    /** One row of a result, read. */
    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private static final String OF_JOB = " FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid"
            + " WHERE i.jobname = ?";

    private final Connector db;
    private final String job;
    private final String policy;

    public Observations(Connector db, String job, String policy) {
        this.db = db;
        this.job = job;
        this.policy = policy;
    }

    /** JBeret executions of the job, admitted ones and restarts alike. */
    public long executionCount() {
        return count("SELECT count(*)" + OF_JOB, job);
    }

    public long completedCount() {
        return count("SELECT count(*)" + OF_JOB + " AND e.batchstatus = 'COMPLETED'", job);
    }

    /** Executions JBeret still shows running or about to. */
    public long unfinishedCount() {
        return count("SELECT count(*)" + OF_JOB + " AND e.batchstatus IN ('STARTING', 'STARTED', 'STOPPING')", job);
    }

    public long stagedCount() {
        return count("SELECT count(*) FROM dispatch.staged_jobs WHERE job_name = ?", job);
    }

    /** Submission ids still staged (a staged job's id is its submission id). */
    public List<Long> stagedIds() {
        return query("SELECT id FROM dispatch.staged_jobs WHERE job_name = ? ORDER BY id", rs -> rs.getLong(1), job);
    }

    public long inflightCount() {
        return count("SELECT count(*) FROM dispatch.inflight_jobs");
    }

    /** In-flight rows still owned by one node (boot). */
    public long inflightCountOf(UUID node) {
        return count("SELECT count(*) FROM dispatch.inflight_jobs WHERE node_id = ?", node);
    }

    /**
     * In-flight rows by owning node. The node that admits a job owns its row, and only a runner on the
     * owning node sets {@code started_at}; rows change owner only when recovery takes a gone node's
     * rows. So while every node lives, a node's started rows are jobs running on that very server.
     */
    public Map<UUID, NodeInflight> inflightByNode() {
        Map<UUID, NodeInflight> byNode = new LinkedHashMap<>();
        query("SELECT node_id, count(started_at), count(*) - count(started_at) FROM dispatch.inflight_jobs"
                + " GROUP BY node_id ORDER BY node_id",
                rs -> Map.entry(rs.getObject(1, UUID.class), new NodeInflight(rs.getLong(2), rs.getLong(3))))
                .forEach(row -> byNode.put(row.getKey(), row.getValue()));
        return byNode;
    }

    /** Every node (boot) ever registered. */
    public List<UUID> nodeIds() {
        return query("SELECT id FROM dispatch.nodes ORDER BY started_at", rs -> rs.getObject(1, UUID.class));
    }

    /** Every node (boot) ever registered, with its {@code dispatch.node-name}. */
    public Map<UUID, String> nodeNames() {
        Map<UUID, String> names = new LinkedHashMap<>();
        query("SELECT id, node_name FROM dispatch.nodes ORDER BY started_at", rs -> Map.entry(rs.getObject(1, UUID.class), rs.getString(2)))
                .forEach(e -> names.put(e.getKey(), e.getValue()));
        return names;
    }

    /** Nothing staged, nothing in flight, nothing running: the storm is over, for better or worse. */
    public boolean drained() {
        return stagedCount() == 0 && inflightCount() == 0 && unfinishedCount() == 0;
    }

    public List<Execution> executions() {
        return query("SELECT e.jobexecutionid, e.jobinstanceid, e.batchstatus, e.exitstatus, e.createtime, e.starttime,"
                + " e.endtime, e.lastupdatedtime, e.jobparameters" + OF_JOB + " ORDER BY e.jobexecutionid", rs -> {
            String parameters = rs.getString(9);
            String submission = parameter(parameters, "dispatch.submissionId");
            return new Execution(rs.getLong(1), rs.getLong(2), submission == null ? null : Long.valueOf(submission),
                    parameter(parameters, "tenant"), rs.getString(3), rs.getString(4),
                    instant(rs, 5), instant(rs, 6), instant(rs, 7), instant(rs, 8));
        }, job);
    }

    public List<InflightRow> inflightRows() {
        return query("SELECT f.execution_id, f.submission_id, p.partition_key, n.node_name, n.heartbeat_at, n.stopped_at,"
                + " f.admitted_at, f.started_at, e.batchstatus, e.endtime FROM dispatch.inflight_jobs f"
                + " LEFT JOIN dispatch.partitions p ON p.id = f.partition_id"
                + " LEFT JOIN dispatch.nodes n ON n.id = f.node_id"
                + " LEFT JOIN job_execution e ON e.jobexecutionid = f.execution_id ORDER BY f.execution_id",
                rs -> new InflightRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), instant(rs, 5),
                        instant(rs, 6), instant(rs, 7), instant(rs, 8), rs.getString(9), instant(rs, 10)));
    }

    public List<StagedPartition> stagedPartitions() {
        return query("SELECT p.partition_key, count(s.id), count(s.parked_at),"
                + " (SELECT count(*) FROM dispatch.inflight_jobs f WHERE f.partition_id = p.id),"
                + " p.last_deny_reason, p.last_denied_at, p.next_eligible_at"
                + " FROM dispatch.partitions p JOIN dispatch.staged_jobs s ON s.partition_id = p.id"
                + " WHERE p.policy_name = ? GROUP BY p.id ORDER BY p.partition_key",
                rs -> new StagedPartition(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getString(5),
                        instant(rs, 6), instant(rs, 7)), policy);
    }

    /** The engine's nodes (server incarnations), to read with the in-flight rows they still own. */
    public List<String> nodes() {
        return query("SELECT id, node_name, started_at, heartbeat_at, stopped_at FROM dispatch.nodes ORDER BY started_at",
                rs -> rs.getObject(1, UUID.class) + " " + rs.getString(2) + " started " + instant(rs, 3) + " heartbeat "
                        + instant(rs, 4) + (rs.getTimestamp(5) != null ? " stopped " + instant(rs, 5) : " (live)"));
    }

    /** The value of one {@code key = value} line of JBeret's JOBPARAMETERS column. */
    static String parameter(String parameters, String key) {
        if (parameters == null) {
            return null;
        }
        for (String line : parameters.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).strip().equals(key)) {
                return line.substring(eq + 1).strip();
            }
        }
        return null;
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private long count(String sql, Object... args) {
        return query(sql, rs -> rs.getLong(1), args).get(0);
    }

    private <T> List<T> query(String sql, Row<T> row, Object... args) {
        return query(db, sql, row, args);
    }

    /** The rows of a query on the fault database (a failure is the scenario's, unchecked). */
    public static <T> List<T> query(Connector db, String sql, Row<T> row, Object... args) {
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(row.map(rs));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Query failed: " + sql, e);
        }
    }

}
