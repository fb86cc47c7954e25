package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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
    private static final Sql LOCK = Sql.template("""
            {{columns}} WHERE d.submission_id = ANY(:submissions::bigint[])
             ORDER BY d.submission_id
               FOR UPDATE OF d SKIP LOCKED
            """).with("columns", COLUMNS);

    private static final Sql DISCARD = Sql.of("""
            DELETE FROM dispatch.dead_jobs WHERE submission_id = ANY(:submissions::bigint[]) RETURNING submission_id
            """);

    // {{where}}: the query's filters (where), each a named parameter (filters).
    private static final Sql PAGE = Sql.template("{{columns}}{{where}} ORDER BY d.died_at DESC, d.submission_id DESC LIMIT :limit OFFSET :offset")
            .with("columns", COLUMNS);

    private static final Sql COUNT = Sql.template(
            "SELECT count(*) FROM dispatch.dead_jobs d JOIN dispatch.partitions p ON p.id = d.partition_id{{where}}");

    private static final Sql TOTAL = Sql.of("SELECT count(*) FROM dispatch.dead_jobs");

    @Inject
    Jdbc jdbc;

    /** The dead jobs among {@code submissionIds}, locked for this transaction (rows others hold are skipped). */
    public List<DeadJobView> lock(List<Long> submissionIds) {
        return jdbc.query(LOCK, Params.of().longs("submissions", submissionIds), DeadJobBrowser::view);
    }

    /** @return the submission ids deleted */
    public List<Long> discard(List<Long> submissionIds) {
        return jdbc.query(DISCARD, Params.of().longs("submissions", submissionIds), rs -> rs.getLong(1));
    }

    public List<DeadJobView> page(DeadJobQuery q) {
        return jdbc.query(PAGE.with("where", where(q)),
                filters(q).integer("limit", Math.max(1, q.pageSize())).integer("offset", Math.max(0, q.first())),
                DeadJobBrowser::view);
    }

    public long count(DeadJobQuery q) {
        return jdbc.query(COUNT.with("where", where(q)), filters(q), rs -> rs.getLong(1)).get(0);
    }

    /** Every dead job (the dashboard's figure). */
    public long total() {
        return jdbc.query(TOTAL, Params.of(), rs -> rs.getLong(1)).get(0);
    }

    private static String where(DeadJobQuery q) {
        List<String> where = new ArrayList<>();
        if (present(q.policy())) {
            where.add("p.policy_name = :policy");
        }
        if (present(q.partitionContains())) {
            where.add("lower(p.partition_key) LIKE :partitionContains ESCAPE '\\'");
        }
        if (present(q.jobName())) {
            where.add("d.job_name = :jobName");
        }
        if (present(q.text())) {
            where.add("(lower(d.error) LIKE :text ESCAPE '\\' OR lower(d.exit_status) LIKE :text ESCAPE '\\')");
        }
        return where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
    }

    /** The values of the filters {@link #where} names, exactly those. */
    private static Params filters(DeadJobQuery q) {
        Params params = Params.of();
        if (present(q.policy())) {
            params.text("policy", q.policy());
        }
        if (present(q.partitionContains())) {
            params.text("partitionContains", contains(q.partitionContains()));
        }
        if (present(q.jobName())) {
            params.text("jobName", q.jobName().strip());
        }
        if (present(q.text())) {
            params.text("text", contains(q.text()));
        }
        return params;
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
