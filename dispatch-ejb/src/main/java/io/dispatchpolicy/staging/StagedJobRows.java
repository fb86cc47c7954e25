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
            "restart_of", "priority", "due_at", "attempt", "schedule_id", "run_timeout_ms", "progress_timeout_ms", "cost"};

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
                new JobTimeouts(rs.getObject(11, Long.class), rs.getObject(12, Long.class)), rs.getInt(13));
    }

    /**
     * The highest priority still waiting in a partition, read off the top of staged_jobs_admit_idx (one
     * row), for statements that take jobs out of its waiting set; 0 when none is left.
     *
     * @param partitionId the SQL expression of the partition's id in the calling statement
     */
    public static String topPriorityOf(String partitionId) {
        return "coalesce((SELECT w.priority FROM dispatch.staged_jobs w WHERE w.partition_id = " + partitionId
                + " AND w.parked_at IS NULL AND w.due_at IS NULL ORDER BY w.priority DESC, w.id LIMIT 1), 0)";
    }
}
