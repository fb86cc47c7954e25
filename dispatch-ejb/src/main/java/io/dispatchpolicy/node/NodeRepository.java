package io.dispatchpolicy.node;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * One row per boot of a server, with its heartbeat and the key of the advisory lock it holds while it
 * lives ({@link NodeLiveness}); and the one definition of a node that is gone.
 */
@ApplicationScoped
public class NodeRepository {

    /**
     * A node {@code n} is gone when it stopped cleanly; when its heartbeat is older than
     * {@code inflight-stale-after} (the fallback, for a server cut off from the database while its
     * session looks alive); or when its advisory lock is not held and its heartbeat is older than the
     * grace (two heartbeat intervals) — provided the database itself has been up for the grace, so a
     * live node had the time to take its lock again after a database restart. Names
     * {@code :staleAfterSeconds} and {@code :graceSeconds} (bound by {@link #gone}); a statement takes it
     * as its fragment {@code {{gone}}} through {@link #withGone}, which also fills the lock namespace. A
     * slow node whose session lives keeps its lock: never gone before stale-after.
     */
    private static final String GONE_TEST = """
            (n.stopped_at IS NOT NULL
             OR n.heartbeat_at < clock_timestamp() - make_interval(secs => :staleAfterSeconds)
             OR (n.heartbeat_at < clock_timestamp() - make_interval(secs => :graceSeconds)
                 AND pg_postmaster_start_time() < clock_timestamp() - make_interval(secs => :graceSeconds)
                 AND NOT EXISTS (SELECT 1 FROM pg_locks l
                                  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                                    AND l.classid = {{lockNamespace}}::oid AND l.objid = n.lock_key::oid)))
            """;

    private static final Sql REGISTER = Sql.of("""
            INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key)
            VALUES (:node, :nodeName, clock_timestamp(), clock_timestamp(), nextval('dispatch.node_lock_key_seq'))
            RETURNING lock_key
            """);

    private static final Sql STOPPED = Sql.of("""
            UPDATE dispatch.nodes SET stopped_at = clock_timestamp() WHERE id = :node
            """);

    private static final Sql LIVE_NAMESAKES = withGone(Sql.template("""
            SELECT n.id::text || ' (heartbeat ' || round(extract(epoch FROM clock_timestamp() - n.heartbeat_at)) || ' s ago)'
              FROM dispatch.nodes n
             WHERE n.node_name = :nodeName AND n.id <> :node AND NOT {{gone}}
            """));

    @Inject
    Jdbc jdbc;

    /** Registers this boot; @return the key of the advisory lock it is to hold. */
    public int register(UUID id, String nodeName) {
        return jdbc.query(REGISTER, Params.of().uuid("node", id).text("nodeName", nodeName), rs -> rs.getInt(1)).get(0);
    }

    public void stopped(UUID id) {
        jdbc.update(STOPPED, Params.of().uuid("node", id));
    }

    /** Other boots under this name that are not gone: another live server configured with the same name. */
    public List<String> liveNamesakes(UUID id, String nodeName, Duration staleAfter, Duration grace) {
        return jdbc.query(LIVE_NAMESAKES, gone(Params.of().text("nodeName", nodeName).uuid("node", id), staleAfter, grace),
                rs -> rs.getString(1));
    }

    /**
     * {@code sql} with its fragment {@code {{gone}}} filled by the test of a gone node {@code n}, which names
     * {@code :staleAfterSeconds} and {@code :graceSeconds} ({@link #gone} binds them).
     */
    public static Sql withGone(Sql sql) {
        return sql.with("gone", GONE_TEST).with("lockNamespace", Integer.toString(NodeLiveness.NAMESPACE));
    }

    /** {@code params} with the values of the gone test's parameters ({@link #withGone}). */
    public static Params gone(Params params, Duration staleAfter, Duration grace) {
        return params.float8("staleAfterSeconds", staleAfter.toMillis() / 1000.0).float8("graceSeconds", grace.toMillis() / 1000.0);
    }
}
