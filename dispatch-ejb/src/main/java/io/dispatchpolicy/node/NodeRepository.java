package io.dispatchpolicy.node;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
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
     * live node had the time to take its lock again after a database restart. Binds: stale-after
     * seconds, grace seconds, grace seconds. A slow node whose session lives keeps its lock: never gone
     * before stale-after.
     */
    public static final String GONE = """
            (n.stopped_at IS NOT NULL
             OR n.heartbeat_at < clock_timestamp() - make_interval(secs => ?)
             OR (n.heartbeat_at < clock_timestamp() - make_interval(secs => ?)
                 AND pg_postmaster_start_time() < clock_timestamp() - make_interval(secs => ?)
                 AND NOT EXISTS (SELECT 1 FROM pg_locks l
                                  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                                    AND l.classid = %d::oid AND l.objid = n.lock_key::oid)))
            """.formatted(NodeLiveness.NAMESPACE);

    private static final String REGISTER = """
            INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key)
            VALUES (?, ?, clock_timestamp(), clock_timestamp(), nextval('dispatch.node_lock_key_seq'))
            RETURNING lock_key
            """;

    private static final String STOPPED = """
            UPDATE dispatch.nodes SET stopped_at = clock_timestamp() WHERE id = ?
            """;

    private static final String LIVE_NAMESAKES = """
            SELECT n.id::text || ' (heartbeat ' || round(extract(epoch FROM clock_timestamp() - n.heartbeat_at)) || ' s ago)'
              FROM dispatch.nodes n
             WHERE n.node_name = ? AND n.id <> ? AND NOT %s
            """.formatted(GONE);

    @Inject
    Jdbc jdbc;

    /** Registers this boot; @return the key of the advisory lock it is to hold. */
    public int register(UUID id, String nodeName) {
        return jdbc.query(REGISTER, (c, st) -> {
            st.setObject(1, id);
            st.setString(2, nodeName);
        }, rs -> rs.getInt(1)).get(0);
    }

    public void stopped(UUID id) {
        jdbc.update(STOPPED, (c, st) -> st.setObject(1, id));
    }

    /** Other boots under this name that are not gone: another live server configured with the same name. */
    public List<String> liveNamesakes(UUID id, String nodeName, Duration staleAfter, Duration grace) {
        return jdbc.query(LIVE_NAMESAKES, (c, st) -> {
            st.setString(1, nodeName);
            st.setObject(2, id);
            bindGone(st, 3, staleAfter, grace);
        }, rs -> rs.getString(1));
    }

    /** Binds {@link #GONE}'s three parameters from {@code index}. */
    public static void bindGone(java.sql.PreparedStatement st, int index, Duration staleAfter, Duration grace)
            throws java.sql.SQLException {
        st.setDouble(index, staleAfter.toMillis() / 1000.0);
        st.setDouble(index + 1, grace.toMillis() / 1000.0);
        st.setDouble(index + 2, grace.toMillis() / 1000.0);
    }
}
