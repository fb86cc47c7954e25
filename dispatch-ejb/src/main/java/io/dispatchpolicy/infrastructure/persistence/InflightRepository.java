package io.dispatchpolicy.infrastructure.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** The life of an in-flight row after admission: started, finished, or taken over for recovery. */
@ApplicationScoped
public class InflightRepository {

    // Conditional on ownership: if recovery moved the row to another node, this runner must not run.
    // The row lock serialises it with ADOPT_UNSTARTED, so exactly one runner ever starts an execution.
    private static final String STARTED = """
            UPDATE dispatch.inflight_jobs SET started_at = clock_timestamp()
             WHERE execution_id = ? AND node_id = ? AND started_at IS NULL
            """;

    private static final String FINISHED = """
            DELETE FROM dispatch.inflight_jobs WHERE execution_id = ?
            """;

    // Rows never started whose owner is gone: an earlier life of this very node (it restarted, so
    // nothing it queued survives), or any node whose heartbeat is stale. The UPDATE moves them to
    // this node under row locks, so exactly one recoverer gets each row; SKIP LOCKED avoids waiting
    // on a row a runner is marking as started right now.
    private static final String ADOPT_UNSTARTED = """
            UPDATE dispatch.inflight_jobs i
               SET node_id = ?
              FROM (SELECT j.execution_id
                      FROM dispatch.inflight_jobs j
                      JOIN dispatch.nodes n ON n.id = j.node_id
                     WHERE j.started_at IS NULL
                       AND j.node_id <> ?
                       AND (n.node_name = ? OR n.stopped_at IS NOT NULL
                            OR n.heartbeat_at < clock_timestamp() - make_interval(secs => ?))
                     ORDER BY j.execution_id
                     LIMIT ?
                     FOR UPDATE OF j SKIP LOCKED) orphan
             WHERE i.execution_id = orphan.execution_id
            RETURNING i.execution_id
            """;

    @Inject
    Jdbc jdbc;

    /** Marks the execution started by {@code node}; false if the row is not this node's to start. */
    public boolean started(long executionId, UUID node) {
        return jdbc.update(STARTED, (c, st) -> {
            st.setLong(1, executionId);
            st.setObject(2, node);
        }) == 1;
    }

    public void finished(long executionId) {
        jdbc.update(FINISHED, (c, st) -> st.setLong(1, executionId));
    }

    /** Moves up to {@code limit} orphaned, never-started rows to {@code node}; returns their execution ids. */
    public List<Long> adoptUnstarted(UUID node, String nodeName, Duration staleAfter, int limit) {
        return jdbc.query(ADOPT_UNSTARTED, (c, st) -> {
            st.setObject(1, node);
            st.setObject(2, node);
            st.setString(3, nodeName);
            st.setDouble(4, staleAfter.toMillis() / 1000.0);
            st.setInt(5, limit);
        }, rs -> rs.getLong(1));
    }
}
