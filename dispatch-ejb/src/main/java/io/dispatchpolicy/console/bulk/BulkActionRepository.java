package io.dispatchpolicy.console.bulk;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.notify.EventType;
import io.dispatchpolicy.notify.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bulk actions' rows and the statements that find and act on the jobs a filter matches. Each kind's jobs
 * are read in submission-id order from a cursor ({@code :cursor} exclusive, {@code :upper} inclusive), so a
 * batch costs its size however far the action has gone, and what the action meets twice (a job restarted
 * while it runs) it meets once.
 */
@ApplicationScoped
public class BulkActionRepository {

    // The filter's criteria on a partition row p, NULL meaning "any".
    private static final String PARTITION = """
            (CAST(:policy AS text) IS NULL OR p.policy_name = :policy)
            AND (CAST(:partitionKey AS text) IS NULL OR p.partition_key = :partitionKey)""";
    // JBeret keeps parameters as "name = value" lines (as the Jobs view finds them).
    private static final String HAS_PARAMETER = "(CAST(:parameterLine AS text) IS NULL "
            + "OR string_to_array(e.jobparameters, E'\\n') @> ARRAY[CAST(:parameterLine AS text)])";

    /** Each kind's jobs matching the filter: their submission ids (and, where it acts on one, their execution), in id order. */
    private static final Map<BulkKind, Sql> PICK = new EnumMap<>(BulkKind.class);
    /** How many each kind's filter matches: the pick without its cursor's limit. */
    private static final Map<BulkKind, Sql> COUNT = new EnumMap<>(BulkKind.class);

    private static void pick(String source, BulkKind... kinds) {
        String filled = source.replace("{{partition}}", PARTITION).replace("{{hasParameter}}", HAS_PARAMETER);
        for (BulkKind kind : kinds) {
            PICK.put(kind, Sql.of(filled));
            COUNT.put(kind, Sql.of("SELECT count(*) FROM (" + filled + ") matched"));
        }
    }

    static {
        // staged: not a schedule's occurrence (its schedule owns it: skip or disable the schedule)
        pick("""
                SELECT s.id, NULL::bigint FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id
                 WHERE s.id > :cursor AND s.id <= :upper AND s.schedule_id IS NULL AND {{partition}}
                   AND (CAST(:jobName AS text) IS NULL OR s.job_name = :jobName)
                   AND (CAST(:fromMs AS bigint) IS NULL OR s.staged_at >= to_timestamp(:fromMs / 1000.0))
                   AND (CAST(:toMs AS bigint) IS NULL OR s.staged_at < to_timestamp(:toMs / 1000.0))
                   AND (CAST(:parameterName AS text) IS NULL
                        OR s.job_parameters @> jsonb_build_object(CAST(:parameterName AS text), CAST(:parameterValue AS text)))
                 ORDER BY s.id LIMIT :batch
                """, BulkKind.DISCARD, BulkKind.EXPIRE);
        // running: in flight, its stop not asked yet
        pick("""
                SELECT i.submission_id, i.execution_id FROM dispatch.inflight_jobs i
                  JOIN dispatch.partitions p ON p.id = i.partition_id
                  JOIN job_execution e ON e.jobexecutionid = i.execution_id
                  JOIN job_instance ji ON ji.jobinstanceid = e.jobinstanceid
                 WHERE i.submission_id > :cursor AND i.submission_id <= :upper AND i.stop_requested_at IS NULL AND {{partition}}
                   AND (CAST(:jobName AS text) IS NULL OR ji.jobname = :jobName)
                   AND (CAST(:fromMs AS bigint) IS NULL OR i.admitted_at >= to_timestamp(:fromMs / 1000.0))
                   AND (CAST(:toMs AS bigint) IS NULL OR i.admitted_at < to_timestamp(:toMs / 1000.0))
                   AND {{hasParameter}}
                 ORDER BY i.submission_id LIMIT :batch
                """, BulkKind.STOP);
        // failed: the latest execution of the job's instance FAILED or STOPPED, nothing staged, dead or in flight for it
        pick("""
                SELECT a.submission_id, e.jobexecutionid FROM dispatch.admissions a
                  JOIN dispatch.partitions p ON p.id = a.partition_id
                  JOIN job_execution first ON first.jobexecutionid = a.execution_id
                  CROSS JOIN LATERAL (SELECT x.jobexecutionid, x.batchstatus, x.endtime, x.jobparameters FROM job_execution x
                                       WHERE x.jobinstanceid = first.jobinstanceid ORDER BY x.jobexecutionid DESC LIMIT 1) e
                  JOIN job_instance ji ON ji.jobinstanceid = first.jobinstanceid
                 WHERE a.submission_id > :cursor AND a.submission_id <= :upper AND e.batchstatus IN ('FAILED', 'STOPPED')
                   AND {{partition}}
                   AND (CAST(:jobName AS text) IS NULL OR ji.jobname = :jobName)
                   AND (CAST(:fromMs AS bigint) IS NULL OR e.endtime >= to_timestamp(:fromMs / 1000.0))
                   AND (CAST(:toMs AS bigint) IS NULL OR e.endtime < to_timestamp(:toMs / 1000.0))
                   AND {{hasParameter}}
                   AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = a.submission_id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.dead_jobs d WHERE d.submission_id = a.submission_id)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs f WHERE f.submission_id = a.submission_id)
                 ORDER BY a.submission_id LIMIT :batch
                """, BulkKind.RESTART);
        pick("""
                SELECT d.submission_id, d.execution_id FROM dispatch.dead_jobs d
                  JOIN dispatch.partitions p ON p.id = d.partition_id
                  LEFT JOIN job_execution e ON e.jobexecutionid = d.execution_id
                 WHERE d.submission_id > :cursor AND d.submission_id <= :upper AND {{partition}}
                   AND (CAST(:jobName AS text) IS NULL OR d.job_name = :jobName)
                   AND (CAST(:fromMs AS bigint) IS NULL OR d.died_at >= to_timestamp(:fromMs / 1000.0))
                   AND (CAST(:toMs AS bigint) IS NULL OR d.died_at < to_timestamp(:toMs / 1000.0))
                   AND {{hasParameter}}
                 ORDER BY d.submission_id LIMIT :batch
                """, BulkKind.RETRY);
    }

    private static final String COLUMNS = "id, kind, filter::text, requested_by, requested_at, state, matched, done, skipped, failed, "
            + "last_error, cancel_requested_by, updated_at, finished_at";

    private static final Sql INSERT = Sql.of("""
            INSERT INTO dispatch.bulk_actions (kind, filter, requested_by, matched, upper_id)
            VALUES (:kind, CAST(:filter AS jsonb), :requestedBy, :matched, :upper)
            RETURNING id
            """);

    // the highest submission id handed out so far: jobs up to it exist (or are being staged) now
    private static final Sql UPPER = Sql.of("SELECT last_value FROM dispatch.submission_id_seq");

    private static final Sql FIND = Sql.of("SELECT " + COLUMNS + " FROM dispatch.bulk_actions WHERE id = :id");
    private static final Sql RECENT = Sql.of("SELECT " + COLUMNS + " FROM dispatch.bulk_actions ORDER BY id DESC LIMIT :limit");

    // One running action for this node's batch, its row locked for the batch's transaction: another node's
    // maintenance skips it meanwhile, so no two batches of one action overlap.
    private static final Sql CLAIM = Sql.of("""
            SELECT id, kind, filter::text, requested_by, cursor_id, upper_id, cancel_requested_by IS NOT NULL
              FROM dispatch.bulk_actions WHERE state = 'running' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
            """);

    private static final Sql PROGRESS = Sql.of("""
            UPDATE dispatch.bulk_actions
               SET cursor_id = :cursor, done = done + :done, skipped = skipped + :skipped, failed = failed + :failed,
                   last_error = coalesce(:error, last_error), updated_at = clock_timestamp(),
                   state = coalesce(:state, state), finished_at = CASE WHEN :state IS NOT NULL THEN clock_timestamp() END
             WHERE id = :id
            """);

    private static final Sql CANCEL = Sql.of("""
            UPDATE dispatch.bulk_actions SET cancel_requested_by = coalesce(cancel_requested_by, :by), updated_at = clock_timestamp()
             WHERE id = :id AND state = 'running'
            """);

    private static final Sql FAIL = Sql.of("""
            UPDATE dispatch.bulk_actions SET state = 'failed', last_error = :error, updated_at = clock_timestamp(),
                   finished_at = clock_timestamp()
             WHERE id = :id AND state = 'running'
            """);

    @Inject
    Jdbc jdbc;

    @Inject
    Outbox outbox;

    /** A running action claimed for one batch. */
    public record Claimed(long id, BulkKind kind, JobFilter filter, String requestedBy, long cursor, long upper, boolean cancelRequested) {
    }

    /** A job a batch acts on: its submission id and, where the kind needs it, its execution. */
    public record Picked(long submissionId, Long executionId) {
    }

    public long upper() {
        return jdbc.query(UPPER, Params.of(), rs -> rs.getLong(1)).get(0);
    }

    /** The jobs of {@code kind} matching {@code filter} after {@code cursor}, up to {@code upper}: at most {@code batch} (null: all). */
    public List<Picked> pick(BulkKind kind, JobFilter filter, long cursor, long upper, Integer batch) {
        return jdbc.query(PICK.get(kind), filterParams(PICK.get(kind), filter).bigint("cursor", cursor).bigint("upper", upper).integer("batch", batch),
                rs -> new Picked(rs.getLong(1), (Long) rs.getObject(2)));
    }

    /** How many jobs of {@code kind} match now. */
    public long count(BulkKind kind, JobFilter filter, long upper) {
        return jdbc.query(COUNT.get(kind), filterParams(COUNT.get(kind), filter).bigint("cursor", 0L).bigint("upper", upper).integer("batch", null),
                rs -> rs.getLong(1)).get(0);
    }

    /** The filter's values the statement names (each kind's statement reads the parameter its own way). */
    private static Params filterParams(Sql sql, JobFilter f) {
        java.util.Set<String> names = sql.names();
        Params p = Params.of().text("policy", f.policy()).text("partitionKey", f.partitionKey()).text("jobName", f.jobName())
                .bigint("fromMs", f.from() == null ? null : f.from().toEpochMilli())
                .bigint("toMs", f.to() == null ? null : f.to().toEpochMilli());
        if (names.contains("parameterName")) {
            p.text("parameterName", f.parameterName()).text("parameterValue", f.parameterValue());
        }
        if (names.contains("parameterLine")) {
            p.text("parameterLine", f.parameter() == null ? null : f.parameterName() + " = " + f.parameterValue());
        }
        return p;
    }

    public long insert(BulkKind kind, JobFilter filter, String requestedBy, long matched, long upper) {
        return jdbc.query(INSERT, Params.of().text("kind", kind.name()).text("filter", JsonCodec.write(filter.given()))
                .text("requestedBy", requestedBy).bigint("matched", matched).bigint("upper", upper), rs -> rs.getLong(1)).get(0);
    }

    public Optional<BulkActionView> find(long id) {
        return jdbc.query(FIND, Params.of().bigint("id", id), this::view).stream().findFirst();
    }

    public List<BulkActionView> recent(int limit) {
        return jdbc.query(RECENT, Params.of().integer("limit", limit), this::view);
    }

    public Optional<Claimed> claim() {
        return jdbc.query(CLAIM, Params.of(), rs -> new Claimed(rs.getLong(1), BulkKind.valueOf(rs.getString(2)), filter(rs.getString(3)),
                rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getBoolean(7))).stream().findFirst();
    }

    /** Records a batch: the cursor after it, its counts, and the state when it ended the action (null: still running). */
    public void progress(long id, long cursor, int done, int skipped, int failed, String error, String state) {
        jdbc.update(PROGRESS, Params.of().bigint("id", id).bigint("cursor", cursor).integer("done", done).integer("skipped", skipped)
                .integer("failed", failed).text("error", error).text("state", state));
        if (state != null) {
            ended(id);
        }
    }

    /** @return whether it was running (and is now asked to stop) */
    public boolean requestCancel(long id, String by) {
        return jdbc.update(CANCEL, Params.of().bigint("id", id).text("by", by)) > 0;
    }

    public void fail(long id, String error) {
        if (jdbc.update(FAIL, Params.of().bigint("id", id).text("error", error)) > 0) {
            ended(id);
        }
    }

    /** The webhooks' event of an action's end, in the transaction that ends it (ADR 0041). */
    private void ended(long id) {
        if (outbox.hooks(EventType.BULK_ACTION_ENDED).isEmpty()) {
            return; // nobody is told: not even the read of the action's row
        }
        find(id).ifPresent(a -> {
            Map<String, Object> data = new java.util.LinkedHashMap<>();
            data.put("id", a.id());
            data.put("kind", a.kind().name());
            data.put("state", a.state());
            data.put("filter", a.filter());
            data.put("requestedBy", a.requestedBy());
            data.put("matched", a.matched());
            data.put("done", a.done());
            data.put("skipped", a.skipped());
            data.put("failed", a.failed());
            data.put("lastError", a.lastError());
            outbox.record(EventType.BULK_ACTION_ENDED, "bulk-action.ended:" + a.id(), data);
        });
    }

    private JobFilter filter(String text) {
        Map<String, String> m = JsonCodec.readStrings(text);
        return new JobFilter(m.get("policy"), m.get("partition"), m.get("job"),
                m.get("from") == null ? null : java.time.Instant.parse(m.get("from")),
                m.get("to") == null ? null : java.time.Instant.parse(m.get("to")), m.get("parameter"));
    }

    private BulkActionView view(ResultSet rs) throws SQLException {
        return new BulkActionView(rs.getLong(1), BulkKind.valueOf(rs.getString(2)),
                new java.util.LinkedHashMap<>(JsonCodec.readStrings(rs.getString(3))), rs.getString(4),
                Jdbc.instant(rs.getTimestamp(5)), rs.getString(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10),
                rs.getString(11), rs.getString(12), Jdbc.instant(rs.getTimestamp(13)), Jdbc.instant(rs.getTimestamp(14)));
    }
}
