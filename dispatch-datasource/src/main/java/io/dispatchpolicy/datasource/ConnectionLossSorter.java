package io.dispatchpolicy.datasource;

import org.jboss.jca.adapters.jdbc.spi.ExceptionSorter;

import java.io.Serializable;
import java.sql.SQLException;
import java.util.Set;

/**
 * Tells WildFly's connection pool which PostgreSQL errors mean the connection is gone, so it is
 * destroyed instead of going back to the pool (and, with the datasource's {@code flush-strategy}, its
 * siblings from before the loss with it).
 *
 * <p>IronJacamar's own PostgreSQL sorter knows only {@code 08006} (an I/O error). A database that is
 * restarted the usual way (a fast shutdown), a terminated backend or a session timeout instead sends
 * {@code FATAL 57P01}/{@code 25P03}/{@code 57P05} and closes the socket: the driver closes its side, and
 * the pool, told nothing fatal happened, hands the closed connection out again — every later use fails
 * with {@code 08003} until background validation finds it, up to its period later. A job whose step
 * drew it ended FAILED for nothing it did (ADR 0037).
 */
public final class ConnectionLossSorter implements ExceptionSorter, Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * SQL states of class 57P (operator intervention that ends the session) and the one session timeout,
     * beside the whole class 08 (connection exception).
     */
    private static final Set<String> SESSION_ENDED = Set.of(
            "57P01", // admin_shutdown: a fast shutdown, pg_terminate_backend
            "57P02", // crash_shutdown: another backend crashed, the server restarts
            "57P03", // cannot_connect_now: the server is starting or stopping
            "57P05", // idle_session_timeout
            "25P03"  // idle_in_transaction_session_timeout
    );

    /** Bounds the walk through chained exceptions, which a driver could make circular. */
    private static final int MAX_CHAIN = 16;

    @Override
    public boolean isExceptionFatal(SQLException e) {
        int seen = 0;
        for (Throwable t = e; t != null && seen < MAX_CHAIN; seen++) {
            if (t instanceof SQLException sql && isConnectionLoss(sql.getSQLState())) {
                return true;
            }
            Throwable next = t instanceof SQLException sql && sql.getNextException() != null ? sql.getNextException() : t.getCause();
            t = next == t ? null : next;
        }
        return false;
    }

    static boolean isConnectionLoss(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || SESSION_ENDED.contains(sqlState));
    }
}
