package io.dispatchpolicy.node;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/**
 * This boot's liveness signal: a session-level advisory lock held on a connection of its own, and the
 * heartbeat written through that same session, so a heartbeat that landed proves the lock was held
 * then. When the session dies — the server was killed, or the database restarted — PostgreSQL drops
 * the lock at once; the next heartbeat opens a new session and takes the lock again.
 *
 * <p>Used from the node's maintenance thread only (never inside a transaction): the connection is
 * in auto-commit and outlives every call.
 */
@ApplicationScoped
public class NodeLiveness {

    /** First key of the two-key advisory lock form: 'disp', so the engine's locks are told apart. */
    public static final int NAMESPACE = 0x64697370;

    private static final String HEARTBEAT = """
            UPDATE dispatch.nodes SET heartbeat_at = clock_timestamp(), shards = ? WHERE id = ?
            """;

    @Inject
    Jdbc jdbc;

    private Connection session;
    private int lockKey;

    /**
     * Heartbeats through the lock's session, opening a new one (and taking the lock again) if it died.
     *
     * @param shards the shards the node admits now, for the console; null for every shard
     */
    public synchronized void heartbeat(UUID node, int lockKey, List<String> shards) {
        try {
            this.lockKey = lockKey;
            if (session == null || !session.isValid(5)) {
                if (session != null) {
                    drop(); // broken: its lock went with its session
                }
                session = jdbc.dataSource().getConnection();
                try (PreparedStatement lock = session.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
                    lock.setInt(1, NAMESPACE);
                    lock.setInt(2, lockKey);
                    // false only if an earlier session of this very boot still holds it: alive all the same
                    lock.execute();
                }
            }
            try (PreparedStatement beat = session.prepareStatement(HEARTBEAT)) {
                beat.setArray(1, shards == null ? null : session.createArrayOf("text", shards.toArray()));
                beat.setObject(2, node);
                beat.executeUpdate();
            }
        } catch (SQLException e) {
            close(); // a session that still lives must not go back to the pool holding the lock
            throw new Jdbc.PersistenceFailure(HEARTBEAT, e);
        }
    }

    /**
     * Lets go of the lock: the node is gone. Unlocked explicitly, since closing a pooled connection
     * returns its session to the pool, lock and all.
     */
    public synchronized void close() {
        if (session != null) {
            unlock();
            drop();
        }
    }

    private void unlock() {
        try (PreparedStatement unlock = session.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            unlock.setInt(1, NAMESPACE);
            unlock.setInt(2, lockKey);
            unlock.execute();
        } catch (SQLException sessionAlreadyGone) {
            // and its lock with it
        }
    }

    private void drop() {
        try {
            session.close();
        } catch (SQLException ignored) {
            // the session is gone either way
        }
        session = null;
    }
}
