package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A staged job as its statements read it, written once for every statement that returns one (find,
 * the admission's take, the bypass's take): the column list and the mapping from it, and the
 * expression of a partition's highest waiting priority that every statement taking jobs out of a
 * waiting set refreshes the partition row with.
 */
public final class StagedJobRows {

    private static final String[] COLUMNS = {"id", "job_name", "job_parameters::text", "submitted_by", "staged_at",
            "restart_of", "priority", "due_at", "attempt", "schedule_id", "run_timeout_ms", "progress_timeout_ms", "cost", "expires_at",
            "ordered_at"};

    /** How many columns {@link #columns} lists: a statement returning more puts them after these. */
    public static final int COLUMN_COUNT = COLUMNS.length;

    private StagedJobRows() {
    }

    /** The columns {@link #read} maps, in its order, each prefixed with {@code alias} (e.g. {@code "s."}, or {@code ""}). */
    public static String columns(String alias) {
        return Arrays.stream(COLUMNS).map(c -> alias + c).collect(Collectors.joining(", "));
    }

    /** The staged job of the current row of a result whose first columns are {@link #columns}. */
    public static StagedJob read(ResultSet rs) throws SQLException {
        long id = rs.getLong(1);
        JobParameters parameters;
        try {
            parameters = JobParameters.trusted(JsonCodec.readStrings(rs.getString(3)));
        } catch (RuntimeException e) {
            throw new UnreadableStagedJob(id, e);
        }
        return new StagedJob(id, rs.getString(2), parameters, rs.getString(4), rs.getTimestamp(5).toInstant(),
                rs.getObject(6, Long.class), rs.getInt(7), Jdbc.instant(rs.getTimestamp(8)), rs.getInt(9), rs.getObject(10, Long.class),
                new JobTimeouts(rs.getObject(11, Long.class), rs.getObject(12, Long.class)), rs.getInt(13),
                Jdbc.instant(rs.getTimestamp(14)), rs.getTimestamp(15).toInstant());
    }

    /**
     * Partitions' highest waiting priority refreshed after a statement took jobs out of them: a statement of its
     * own, as it must see the rows gone.
     */
    /**
     * Takes the rows of a CTE {@code gone} (a DELETE of staged rows returning {@code partition_id}, {@code parked} and
     * {@code scheduled}) out of their partitions' counts; returns each partition's id and how many left it ({@code n}).
     * The caller holds the partitions' locks. A fragment, so every statement that takes many staged rows out at once
     * counts them alike.
     */
    public static final String OUT_OF_COUNTS = """
            UPDATE dispatch.partitions p
               SET parked_count = p.parked_count - c.parked, scheduled_count = p.scheduled_count - c.scheduled,
                   pending_count = p.pending_count - c.waiting
              FROM (SELECT partition_id, count(*) FILTER (WHERE parked)::int AS parked,
                           count(*) FILTER (WHERE scheduled AND NOT parked)::int AS scheduled,
                           count(*) FILTER (WHERE NOT scheduled AND NOT parked)::int AS waiting
                      FROM gone GROUP BY partition_id) c
             WHERE p.id = c.partition_id
            RETURNING p.id, c.parked + c.scheduled + c.waiting AS n""";

    public static final io.dispatchpolicy.infrastructure.persistence.Sql RESET_TOP_PRIORITIES =
            io.dispatchpolicy.infrastructure.persistence.Sql.template("""
                    UPDATE dispatch.partitions p SET top_priority = {{topPriority}} WHERE p.id = ANY (:partitions::bigint[])
                    """).with("topPriority", topPriorityOf("p.id"));

    /**
     * The highest priority still waiting in a partition, read off the top of staged_jobs_admit_idx (one
     * row), for statements that take jobs out of its waiting set; 0 when none is left.
     *
     * @param partitionId the SQL expression of the partition's id in the calling statement
     */
    public static String topPriorityOf(String partitionId) {
        return "coalesce((SELECT w.priority FROM dispatch.staged_jobs w WHERE w.partition_id = " + partitionId
                + " AND w.parked_at IS NULL AND w.due_at IS NULL ORDER BY w.priority DESC, w.ordered_at, w.id LIMIT 1), 0)";
    }

    /**
     * The common start of the statements that act on staged rows when a time stored on them has passed
     * (promotion: {@code due_at}; aging: {@code next_age_at}; expiry: {@code expires_at}): up to {@code :limit} such rows, earliest
     * first, off the top of the column's partial index — so the cost is the number due, never the number
     * waiting for a later time. The bound is {@code statement_timestamp()}, not
     * {@code clock_timestamp()}: a volatile function cannot bound an index scan, and the scan would
     * filter every row not yet due (seen with EXPLAIN, docs/benchmarks.md). Then their partitions are
     * locked, then the rows themselves fetched by primary key and locked: partition before row, the
     * order of admission and drain, so none of them waits on another in a cycle; both SKIP LOCKED, so
     * a partition being admitted or drained, or a row another node holds, waits for the next pass.
     *
     * @param column  the time column
     * @param cte     the name of the CTE of locked rows
     * @param columns what that CTE selects from {@code dispatch.staged_jobs s}
     * @param rows    which rows whose time has passed are meant (SQL condition)
     * @param rest    the statement's other CTEs and its final statement, which act on {@code cte}
     */
    public static io.dispatchpolicy.infrastructure.persistence.Sql pastDue(String column, String cte, String columns, String rows, String rest) {
        return io.dispatchpolicy.infrastructure.persistence.Sql.template("""
                WITH candidates AS MATERIALIZED (
                    SELECT id, partition_id FROM dispatch.staged_jobs
                     WHERE {{column}} IS NOT NULL AND {{column}} <= statement_timestamp() AND {{rows}}
                     ORDER BY {{column}}
                     LIMIT :limit),
                locked AS MATERIALIZED (
                    SELECT q.id FROM dispatch.partitions q WHERE q.id = ANY (ARRAY(SELECT partition_id FROM candidates))
                     ORDER BY {{lockOrder}} FOR UPDATE SKIP LOCKED),
                {{cte}} AS MATERIALIZED (
                    SELECT {{columns}} FROM dispatch.staged_jobs s
                     WHERE s.id = ANY (ARRAY(SELECT id FROM candidates)) AND s.partition_id = ANY (ARRAY(SELECT id FROM locked))
                       AND s.{{column}} IS NOT NULL
                       FOR UPDATE SKIP LOCKED),
                {{rest}}""").with("rest", rest).with("lockOrder", io.dispatchpolicy.partition.PartitionRepository.lockOrder("q.")).with("columns", columns)
                .with("rows", rows).with("column", column).with("cte", cte);
    }

}
