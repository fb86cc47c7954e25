package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.node.NodeRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Executions of ungoverned jobs that a gone server left running on record (ADR 0032), and the restarts
 * asked for them. JBeret's {@code JOB_EXECUTION} carries two columns of the engine's
 * ({@code infrastructure.jberet.JobRepositoryIndexes}): the creating connection's {@code application_name},
 * {@code dispatch:<node name>} on the engine's datasource, and the database's time of the INSERT.
 */
@ApplicationScoped
public class StrandedRepository {

    /** The prefix the datasource's {@code ApplicationName} gives every connection of a server: {@code dispatch:<node name>}. */
    public static final String APPLICATION_NAME_PREFIX = "dispatch:";

    // The boots of the execution's server name that were alive when it was created ({{aliveThen}}): it
    // belongs to one of them. Stranded when there was one and every one of them is gone now: a name two
    // live servers share proves nothing of either, and an execution created before any boot of its name
    // registered (the engine not deployed yet) is never touched.
    private static final String ALIVE_THEN = """
            FROM dispatch.nodes n
             WHERE n.node_name = substr(c.dispatch_node, length(:prefix) + 1)
               AND n.started_at <= c.dispatch_created_at AND (n.stopped_at IS NULL OR n.stopped_at >= c.dispatch_created_at)""";

    // Marks them FAILED with their steps and partitions, each execution once whichever node gets there first
    // (the row is re-checked under its lock), and, when asked, records the restart it is owed in the same
    // statement: a node that dies between this and the restart leaves the record to another node. Whatever
    // application started it: a gone server's execution is stranded whoever's it was (JBeret names an
    // application per module, so the engine's is rarely the one that started an ungoverned job). Governed
    // executions (an admission names them) are recovery's (DefaultRecoveryService).
    private static final Sql MARK = NodeRepository.withGone(Sql.template("""
            WITH candidates AS MATERIALIZED (
                SELECT e.jobexecutionid, e.dispatch_node, e.dispatch_created_at
                  FROM job_execution e
                 WHERE e.batchstatus IN ('STARTING', 'STARTED', 'STOPPING')
                   AND e.dispatch_node LIKE :prefix || '%' AND e.dispatch_created_at IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs f WHERE f.execution_id = e.jobexecutionid)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.admissions a WHERE a.execution_id = e.jobexecutionid)
                 ORDER BY e.jobexecutionid
                 LIMIT :limit),
            stranded AS MATERIALIZED (
                SELECT c.jobexecutionid, substr(c.dispatch_node, length(:prefix) + 1) AS node_name FROM candidates c
                 WHERE EXISTS (SELECT 1 {{aliveThen}})
                   AND NOT EXISTS (SELECT 1 {{aliveThen}} AND NOT {{gone}})),
            failed AS (
                UPDATE job_execution e
                   SET batchstatus = 'FAILED', exitstatus = 'FAILED by dispatch: its server ' || s.node_name || ' is gone',
                       endtime = clock_timestamp(), lastupdatedtime = clock_timestamp()
                  FROM stranded s
                 WHERE e.jobexecutionid = s.jobexecutionid AND e.batchstatus IN ('STARTING', 'STARTED', 'STOPPING')
                RETURNING e.jobexecutionid, s.node_name),
            steps AS (
                UPDATE step_execution st SET batchstatus = 'FAILED', endtime = clock_timestamp()
                  FROM failed WHERE st.jobexecutionid = failed.jobexecutionid
                   AND st.batchstatus IN ('STARTING', 'STARTED', 'STOPPING')
                RETURNING st.stepexecutionid),
            partitions AS (
                UPDATE partition_execution p SET batchstatus = 'FAILED'
                  FROM step_execution st, failed
                 WHERE p.stepexecutionid = st.stepexecutionid AND st.jobexecutionid = failed.jobexecutionid
                   AND p.batchstatus IN ('STARTING', 'STARTED', 'STOPPING')
                RETURNING p.stepexecutionid),
            owed AS (
                INSERT INTO dispatch.ungoverned_restarts (execution_id, marked_by)
                SELECT jobexecutionid, :node FROM failed WHERE :restart
                RETURNING execution_id)
            SELECT jobexecutionid, node_name, (SELECT count(*) FROM steps) + (SELECT count(*) FROM partitions) FROM failed
             ORDER BY jobexecutionid
            """).with("aliveThen", ALIVE_THEN));

    // Restarts owed whose marking node is gone (it died before it could restart them), or this node's own.
    private static final Sql OWED = NodeRepository.withGone(Sql.template("""
            SELECT r.execution_id FROM dispatch.ungoverned_restarts r
              LEFT JOIN dispatch.nodes n ON n.id = r.marked_by
             WHERE r.marked_by = :node OR n.id IS NULL OR {{gone}}
             ORDER BY r.execution_id
             LIMIT :limit
            """));

    private static final Sql PAID = Sql.of("DELETE FROM dispatch.ungoverned_restarts WHERE execution_id = :execution");

    @Inject
    Jdbc jdbc;

    /** Marks FAILED up to {@code limit} stranded executions of ungoverned jobs, recording the restart each is owed when {@code restart}. */
    public List<Stranded> markFailed(UUID node, boolean restart, Duration staleAfter, Duration grace, int limit) {
        return jdbc.query(MARK, NodeRepository.gone(Params.of().uuid("node", node)
                        .bool("restart", restart).text("prefix", APPLICATION_NAME_PREFIX).integer("limit", limit), staleAfter, grace),
                rs -> new Stranded(rs.getLong(1), rs.getString(2), rs.getLong(3)));
    }

    /** Restarts owed that this node is to make: its own, and those of nodes that are gone. */
    public List<Long> owedRestarts(UUID node, Duration staleAfter, Duration grace, int limit) {
        return jdbc.query(OWED, NodeRepository.gone(Params.of().uuid("node", node).integer("limit", limit), staleAfter, grace),
                rs -> rs.getLong(1));
    }

    /** The restart of {@code executionId} was made (or is not to be made any more). */
    public void paid(long executionId) {
        jdbc.update(PAID, Params.of().bigint("execution", executionId));
    }
}
