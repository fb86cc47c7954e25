package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The console's dead jobs: pages of them by filter, and the rows an operator retries or discards,
 * locked so two operators (or two nodes) never act on one twice. Filters are bound parameters; no user
 * text reaches the SQL. The engine writes the rows (DeadJobRepository).
 */
@ApplicationScoped
public class DeadJobBrowser {

    private static final String COLUMNS = """
            SELECT d.submission_id, p.policy_name, d.partition_id, p.partition_key, d.job_name, d.execution_id, d.attempts,
                   d.priority, d.submitted_by, d.exit_status, d.error, d.died_at
              FROM dispatch.dead_jobs d JOIN dispatch.partitions p ON p.id = d.partition_id
            """;

    // Rows an operator acts on, locked so two operators (or two nodes) never act on one twice.
    private static final String LOCK = COLUMNS + """
             WHERE d.submission_id = ANY(?::bigint[])
             ORDER BY d.submission_id
               FOR UPDATE OF d SKIP LOCKED
            """;

    private static final String DISCARD = """
            DELETE FROM dispatch.dead_jobs WHERE submission_id = ANY(?::bigint[]) RETURNING submission_id
            """;

    @Inject
    Jdbc jdbc;

    /** The dead jobs among {@code submissionIds}, locked for this transaction (rows others hold are skipped). */
    public List<DeadJobView> lock(List<Long> submissionIds) {
        return jdbc.query(LOCK, (c, st) -> st.setArray(1, Jdbc.longs(c, submissionIds)), DeadJobBrowser::view);
    }

    /** @return the submission ids deleted */
    public List<Long> discard(List<Long> submissionIds) {
        return jdbc.query(DISCARD, (c, st) -> st.setArray(1, Jdbc.longs(c, submissionIds)), rs -> rs.getLong(1));
    }

    public List<DeadJobView> page(DeadJobQuery q) {
        String sql = COLUMNS + where(q) + " ORDER BY d.died_at DESC, d.submission_id DESC LIMIT ? OFFSET ?";
        return jdbc.query(sql, (c, st) -> {
            int i = bind(st, q);
            st.setInt(i++, Math.max(1, q.pageSize()));
            st.setInt(i, Math.max(0, q.first()));
        }, DeadJobBrowser::view);
    }

    public long count(DeadJobQuery q) {
        String sql = "SELECT count(*) FROM dispatch.dead_jobs d JOIN dispatch.partitions p ON p.id = d.partition_id" + where(q);
        return jdbc.query(sql, (c, st) -> bind(st, q), rs -> rs.getLong(1)).get(0);
    }

    /** Every dead job (the dashboard's figure). */
    public long total() {
        return jdbc.query("SELECT count(*) FROM dispatch.dead_jobs", (c, st) -> { }, rs -> rs.getLong(1)).get(0);
    }

    private static String where(DeadJobQuery q) {
        List<String> where = new ArrayList<>();
        if (present(q.policy())) {
            where.add("p.policy_name = ?");
        }
        if (present(q.partitionContains())) {
            where.add("lower(p.partition_key) LIKE ? ESCAPE '\\'");
        }
        if (present(q.jobName())) {
            where.add("d.job_name = ?");
        }
        if (present(q.text())) {
            where.add("(lower(d.error) LIKE ? ESCAPE '\\' OR lower(d.exit_status) LIKE ? ESCAPE '\\')");
        }
        return where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
    }

    /** Binds the filters of {@link #where}; returns the next parameter index. */
    private static int bind(PreparedStatement st, DeadJobQuery q) throws SQLException {
        int i = 1;
        if (present(q.policy())) {
            st.setString(i++, q.policy());
        }
        if (present(q.partitionContains())) {
            st.setString(i++, contains(q.partitionContains()));
        }
        if (present(q.jobName())) {
            st.setString(i++, q.jobName().strip());
        }
        if (present(q.text())) {
            st.setString(i++, contains(q.text()));
            st.setString(i++, contains(q.text()));
        }
        return i;
    }

    private static String contains(String text) {
        return "%" + PartitionBrowser.escapeLike(text.strip().toLowerCase(Locale.ROOT)) + "%";
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }

    private static DeadJobView view(ResultSet rs) throws SQLException {
        return new DeadJobView(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                rs.getLong(6), rs.getInt(7), rs.getInt(8), rs.getString(9), rs.getString(10), rs.getString(11),
                Jdbc.instant(rs.getTimestamp(12)));
    }
}
