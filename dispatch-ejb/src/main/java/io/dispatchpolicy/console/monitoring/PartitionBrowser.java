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
 * Pages through partitions for the console, one row per key (a policy's lanes are columns of it, not rows of
 * their own). The sort column comes from a fixed map of the sortable fields and every filter is a bound
 * parameter, so no user text reaches the SQL.
 */
@ApplicationScoped
public class PartitionBrowser {

    // One row per key: a policy with lanes keeps a row per lane beside the key's own (its gates' state), and the
    // console shows the key once, its lanes as columns (ADR 0025 keeps the rows; this is only how they are read).
    // The figures add up over the rows; the latest denial, the earliest next chance and the latest admission win;
    // the key's own row gives the id its page is opened with. {{rows}} chooses the rows grouped.
    private static final String GROUPED = """
            SELECT coalesce(min(p.id) FILTER (WHERE p.lane = ''), min(p.id)) AS id, p.policy_name, p.partition_key,
                   sum(p.pending_count)::int AS pending_count, sum(p.parked_count)::int AS parked_count,
                   sum(p.total_admitted)::bigint AS total_admitted, sum(p.decayed_admits) AS decayed_admits,
                   max(p.decayed_admits_at) AS decayed_admits_at, max(p.last_checked_at) AS last_checked_at,
                   max(p.last_admitted_at) AS last_admitted_at, min(p.next_eligible_at) AS next_eligible_at,
                   max(p.last_denied_at) AS last_denied_at,
                   (array_agg(p.last_deny_reason ORDER BY p.last_denied_at DESC NULLS LAST))[1] AS last_deny_reason,
                   bool_or(p.paused) AS paused, min(p.created_at) AS created_at, sum(p.scheduled_count)::int AS scheduled_count,
                   CASE WHEN count(*) = 1 THEN min(p.lane) ELSE '' END AS lane,
                   array_agg(p.id ORDER BY p.lane) FILTER (WHERE p.lane <> '') AS lane_ids,
                   array_agg(p.lane ORDER BY p.lane) FILTER (WHERE p.lane <> '') AS lane_names,
                   array_agg(p.pending_count ORDER BY p.lane) FILTER (WHERE p.lane <> '') AS lane_pending,
                   array_agg(p.parked_count ORDER BY p.lane) FILTER (WHERE p.lane <> '') AS lane_parked,
                   array_agg(p.total_admitted ORDER BY p.lane) FILTER (WHERE p.lane <> '') AS lane_admitted
              FROM {{rows}}
             GROUP BY p.policy_name, p.partition_key
            """;

    /** {@link PartitionQuery#SORTABLE} field → column of {@link #GROUPED}. */
    private static final Map<String, String> SORT_COLUMNS = Map.of("policyName", "policy_name",
            "partitionKey", "partition_key", "pendingCount", "pending_count", "parkedCount", "parked_count",
            "totalAdmitted", "total_admitted", "decayedAdmits", "decayed_admits", "lastAdmittedAt", "last_admitted_at",
            "nextEligibleAt", "next_eligible_at", "lastDeniedAt", "last_denied_at");

    // {{where}}: the query's filters (where), each a named parameter (filters); {{order}}: a column of SORT_COLUMNS.
    private static final Sql PAGE = Sql.template("SELECT * FROM (" + GROUPED + ") g ORDER BY {{order}}, id LIMIT :limit OFFSET :offset")
            .with("rows", "dispatch.partitions p{{where}}");

    private static final Sql COUNT = Sql.template(
            "SELECT count(*) FROM (SELECT 1 FROM dispatch.partitions p{{where}} GROUP BY p.policy_name, p.partition_key) g");

    /**
     * The rows {@code p} a partition page stands for, given {@code me}, the row it was opened with (bind
     * {@code me.id}): a key's own row (lane {@code ''}) stands for the key and all its lanes, a lane's row for
     * itself alone. The page's figures, staged jobs and jobs in flight all read these rows.
     */
    static final String ROWS_OF_PAGE = """
            dispatch.partitions me
              JOIN dispatch.partitions p ON p.policy_name = me.policy_name AND p.partition_key = me.partition_key
                   AND (me.lane = '' OR p.id = me.id)""";

    private static final Sql FIND = Sql.of(GROUPED.replace("{{rows}}", ROWS_OF_PAGE + "\n WHERE me.id = :partition"));

    @Inject
    Jdbc jdbc;

    public List<Partition> page(PartitionQuery q) {
        String column = q.sortField() == null ? null : SORT_COLUMNS.get(q.sortField()); // Map.of refuses a null key
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
            where.add("p.policy_name = :policy");
        }
        if (hasKey(q)) {
            where.add("lower(p.partition_key) LIKE :keyContains ESCAPE '\\'");
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
        List<Partition.LaneCount> lanes = new ArrayList<>();
        java.sql.Array ids = rs.getArray("lane_ids");
        if (ids != null) {
            Long[] id = (Long[]) ids.getArray();
            String[] name = (String[]) rs.getArray("lane_names").getArray();
            Integer[] pending = (Integer[]) rs.getArray("lane_pending").getArray();
            Integer[] parked = (Integer[]) rs.getArray("lane_parked").getArray();
            Long[] admitted = (Long[]) rs.getArray("lane_admitted").getArray();
            for (int i = 0; i < id.length; i++) {
                lanes.add(new Partition.LaneCount(id[i], name[i], pending[i], parked[i], admitted[i]));
            }
        }
        String lane = rs.getString(17);
        return new Partition(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5), rs.getLong(6),
                rs.getDouble(7), Jdbc.instant(rs.getTimestamp(8)), Jdbc.instant(rs.getTimestamp(9)),
                Jdbc.instant(rs.getTimestamp(10)), Jdbc.instant(rs.getTimestamp(11)), Jdbc.instant(rs.getTimestamp(12)),
                rs.getString(13), rs.getBoolean(14), Jdbc.instant(rs.getTimestamp(15)), rs.getInt(16), lane,
                lane.isEmpty() ? lanes : List.of());
    }

    /** Makes {@code %}, {@code _} and {@code \} in user text match themselves. */
    public static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
