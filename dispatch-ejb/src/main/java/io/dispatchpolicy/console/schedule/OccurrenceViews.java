package io.dispatchpolicy.console.schedule;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;

/** The schedule pages' reads of occurrences, with their executions' status (the engine's writes are OccurrenceRepository's). */
@ApplicationScoped
public class OccurrenceViews {

    private static final String VIEW_COLUMNS = """
            SELECT o.submission_id, o.kind, o.state, o.run_at, o.ended_at, o.reason, coalesce(a.execution_id, o.execution_id),
                   e.batchstatus
              FROM dispatch.schedule_occurrences o
              LEFT JOIN dispatch.admissions a ON a.submission_id = o.submission_id
              LEFT JOIN job_execution e ON e.jobexecutionid = coalesce(a.execution_id, o.execution_id)
            """;

    private static final Sql IN_STATES = Sql.template("""
            {{columns}} WHERE o.schedule_id = :schedule AND o.state = ANY (:states::text[])
             ORDER BY o.run_at DESC, o.id DESC
             LIMIT :limit
            """).with("columns", VIEW_COLUMNS);

    private static final Sql LAST_ENDED = Sql.template("""
            {{columns}} WHERE o.schedule_id = :schedule AND o.state <> 'future'
             ORDER BY o.ended_at DESC, o.id DESC
             LIMIT 1
            """).with("columns", VIEW_COLUMNS);

    @Inject
    Jdbc jdbc;

    /** The schedule's occurrences in these states, newest run time first. */
    public List<OccurrenceView> inStates(long scheduleId, List<String> states, int limit) {
        return jdbc.query(IN_STATES, Params.of().bigint("schedule", scheduleId).texts("states", states).integer("limit", limit),
                OccurrenceViews::view);
    }

    public Optional<OccurrenceView> lastEnded(long scheduleId) {
        return jdbc.query(LAST_ENDED, Params.of().bigint("schedule", scheduleId), OccurrenceViews::view).stream().findFirst();
    }

    private static OccurrenceView view(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new OccurrenceView(rs.getLong(1), rs.getString(2), rs.getString(3), Jdbc.instant(rs.getTimestamp(4)),
                Jdbc.instant(rs.getTimestamp(5)), rs.getString(6), (Long) rs.getObject(7), rs.getString(8));
    }
}
