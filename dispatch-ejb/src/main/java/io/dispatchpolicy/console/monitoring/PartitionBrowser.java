package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.domain.model.Partition;
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
import java.util.Map;

/**
 * Pages through partitions for the console. The sort column comes from a fixed map of the sortable
 * fields and every filter is a bound parameter, so no user text reaches the SQL.
 */
@ApplicationScoped
public class PartitionBrowser {

    private static final String COLUMNS = """
            SELECT id, policy_name, partition_key, pending_count, parked_count, total_admitted, decayed_admits,
                   decayed_admits_at, last_checked_at, last_admitted_at, next_eligible_at, last_denied_at,
                   last_deny_reason, paused, created_at, scheduled_count, lane
              FROM dispatch.partitions
            """;

    /** {@link PartitionQuery#SORTABLE} field → column. */
    private static final Map<String, String> SORT_COLUMNS = Map.of("policyName", "policy_name",
            "partitionKey", "partition_key", "pendingCount", "pending_count", "parkedCount", "parked_count",
            "totalAdmitted", "total_admitted", "decayedAdmits", "decayed_admits", "lastAdmittedAt", "last_admitted_at",
            "nextEligibleAt", "next_eligible_at", "lastDeniedAt", "last_denied_at");

    // {{where}}: the query's filters (where), each a named parameter (filters); {{order}}: a column of SORT_COLUMNS.
    private static final Sql PAGE = Sql.template("{{columns}}{{where}} ORDER BY {{order}}, id LIMIT :limit OFFSET :offset")
            .with("columns", COLUMNS);

    private static final Sql COUNT = Sql.template("SELECT count(*) FROM dispatch.partitions{{where}}");

    private static final Sql FIND = Sql.template("{{columns}} WHERE id = :partition").with("columns", COLUMNS);

    @Inject
    Jdbc jdbc;

    public List<Partition> page(PartitionQuery q) {
        String column = SORT_COLUMNS.get(q.sortField());
        boolean ascending = column != null && q.ascending();
        String order = (column == null ? "pending_count" : column) + (ascending ? " ASC" : " DESC");
        return jdbc.query(PAGE.with("where", where(q)).with("order", order),
                filters(q).integer("limit", Math.max(1, q.pageSize())).integer("offset", Math.max(0, q.first())),
                PartitionBrowser::partition);
    }

    public long count(PartitionQuery q) {
        return jdbc.query(COUNT.with("where", where(q)), filters(q), rs -> rs.getLong(1)).get(0);
    }

    public Partition find(long id) {
        List<Partition> found = jdbc.query(FIND, Params.of().bigint("partition", id), PartitionBrowser::partition);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String where(PartitionQuery q) {
        List<String> where = new ArrayList<>();
        if (hasPolicy(q)) {
            where.add("policy_name = :policy");
        }
        if (hasKey(q)) {
            where.add("lower(partition_key) LIKE :keyContains ESCAPE '\\'");
        }
        return where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
    }

    /** The values of the filters {@link #where} names, exactly those. */
    private static Params filters(PartitionQuery q) {
        Params params = Params.of();
        if (hasPolicy(q)) {
            params.text("policy", q.policy());
        }
        if (hasKey(q)) {
            params.text("keyContains", "%" + escapeLike(q.keyContains().toLowerCase(Locale.ROOT)) + "%");
        }
        return params;
    }

    private static boolean hasPolicy(PartitionQuery q) {
        return q.policy() != null && !q.policy().isBlank();
    }

    private static boolean hasKey(PartitionQuery q) {
        return q.keyContains() != null && !q.keyContains().isBlank();
    }

    private static Partition partition(ResultSet rs) throws SQLException {
        return new Partition(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5), rs.getLong(6),
                rs.getDouble(7), Jdbc.instant(rs.getTimestamp(8)), Jdbc.instant(rs.getTimestamp(9)),
                Jdbc.instant(rs.getTimestamp(10)), Jdbc.instant(rs.getTimestamp(11)), Jdbc.instant(rs.getTimestamp(12)),
                rs.getString(13), rs.getBoolean(14), Jdbc.instant(rs.getTimestamp(15)), rs.getInt(16), rs.getString(17));
    }

    /** Makes {@code %}, {@code _} and {@code \} in user text match themselves. */
    public static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
