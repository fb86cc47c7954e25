package io.dispatchpolicy.node;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * What this node knows of its database's reachability, and the one place that logs about it: a
 * WARNING when it goes away, at most one line a minute while it stays away, an INFO when it is back —
 * never a stack trace per attempt. While it is away the engine's timers do not touch the datasource
 * (every failed attempt there costs a stack trace in the connection pool's log too); they ask
 * {@link #probe()}, which first knocks on the server's TCP port, so a database that is plainly down
 * costs no connection attempt at all.
 */
@ApplicationScoped
public class DatabaseOutage {

    private static final Logger LOG = Logger.getLogger(DatabaseOutage.class.getName());
    private static final Duration REMIND_EVERY = Duration.ofMinutes(1);
    private static final int KNOCK_TIMEOUT_MS = 1_000;

    @Inject
    Jdbc jdbc;

    private volatile Instant downSince;
    private volatile Instant lastReminder;
    private volatile InetSocketAddress server;

    public boolean isDown() {
        return downSince != null;
    }

    /** Since when this node has found its database unreachable; empty while it is reachable. */
    public Optional<Instant> downSince() {
        return Optional.ofNullable(downSince);
    }

    /**
     * Judges a failure: when it is the database being unreachable (by its cause, or because a probe
     * fails now), records the outage and returns true — the caller says nothing more. Otherwise the
     * failure is the caller's to report.
     */
    public boolean absorbs(Throwable failure) {
        if (isDown()) {
            remindIfDue();
            return true;
        }
        if (isConnectivityFailure(failure) || !reachable()) {
            wentDown(failure);
            return true;
        }
        return false;
    }

    /**
     * Checks whether the database answers, quietly. On the first success after an outage logs that
     * it is back.
     *
     * @return true when it answers; the caller may then run what waited for it
     */
    public boolean probe() {
        if (reachable()) {
            Instant since = downSince;
            if (since != null) {
                downSince = null;
                LOG.info(() -> "The database is reachable again after " + seconds(since) + " s; the engine resumes");
            }
            return true;
        }
        remindIfDue();
        return false;
    }

    private boolean reachable() {
        InetSocketAddress address = server;
        if (address != null && isDown()) {
            try (Socket socket = new Socket()) {
                // resolved on every knock: a failover may move the name to another address
                socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), KNOCK_TIMEOUT_MS);
            } catch (IOException refused) {
                return false;
            }
        }
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            if (server == null) {
                server = serverAddress(c.getMetaData().getURL());
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private void wentDown(Throwable failure) {
        Instant now = Instant.now();
        downSince = now;
        lastReminder = now;
        LOG.warning(() -> "The database is unreachable (" + rootMessage(failure) + "); the tick, heartbeat, recovery "
                + "and sweep wait for it, and running jobs' bookkeeping is repaired when it is back");
    }

    private void remindIfDue() {
        Instant since = downSince;
        Instant last = lastReminder;
        if (since != null && (last == null || Duration.between(last, Instant.now()).compareTo(REMIND_EVERY) >= 0)) {
            lastReminder = Instant.now();
            LOG.warning(() -> "The database is still unreachable, for " + seconds(since) + " s now");
        }
    }

    /**
     * Connection-level failures anywhere in the cause chain: SQL states of class 08 (connection),
     * 57P (the server shut down or is starting), 53300 (too many connections), a refused socket, or
     * the pool's own "cannot get a connection".
     */
    static boolean isConnectivityFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.equals("53300"))) {
                    return true;
                }
            }
            if (t instanceof ConnectException || t instanceof java.net.SocketException
                    || t instanceof java.io.EOFException) {
                return true;
            }
            if (t.getClass().getName().equals("jakarta.resource.ResourceException")
                    && String.valueOf(t.getMessage()).contains("IJ")) {
                return true;
            }
        }
        return false;
    }

    /** host:port of a {@code jdbc:postgresql://host[:port]/db} URL; null for anything else. */
    static InetSocketAddress serverAddress(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
            return null;
        }
        try {
            URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
            if (uri.getHost() == null || jdbcUrl.substring(18).contains(",")) {
                return null; // several hosts or a socket path: no single address to knock on
            }
            return InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static long seconds(Instant since) {
        return Duration.between(since, Instant.now()).toSeconds();
    }
}
