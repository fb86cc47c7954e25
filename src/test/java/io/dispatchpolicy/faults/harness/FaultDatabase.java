package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.devserver.Trees;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import static org.awaitility.Awaitility.await;

/**
 * The fault suite's PostgreSQL: embedded (zonky), on a free port, with a data directory of its own
 * that is wiped once at start and then kept, so the database can crash and come back with its data.
 *
 * <p>{@link #stopImmediately()} is PostgreSQL's immediate shutdown: SIGQUIT to the postmaster, which
 * makes every backend quit at once without a checkpoint, as after a crash; the next start runs crash
 * recovery from the WAL. The postmaster refuses to be started by hand as root, but zonky starts it
 * fine, so starting again goes through zonky on the same directory and port.
 */
public final class FaultDatabase implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FaultDatabase.class.getName());
    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";

    private final Path dataDir;
    private final int port;
    private final Thread cleanup = new Thread(this::closeQuietly, "fault-database-cleanup");
    private EmbeddedPostgres postgres;
    private String lastStopMode = "none";

    private FaultDatabase(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** Wipes {@code dataDir}, then starts a fresh database in it on a free port. */
    public static FaultDatabase start(Path dataDir) {
        Trees.delete(dataDir);
        FaultDatabase db = new FaultDatabase(dataDir, freePort());
        db.startPostgres();
        Runtime.getRuntime().addShutdownHook(db.cleanup);
        return db;
    }

    private void startPostgres() {
        try {
            Files.createDirectories(dataDir);
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    // crash recovery after an immediate stop takes longer than zonky's 10 s on a busy machine
                    .setPGStartupWait(Duration.ofSeconds(120))
                    // zonky turns synchronous_commit off, so an immediate stop would lose the last
                    // ~600 ms of COMMITTED transactions: a fault no real database has. On, a commit
                    // that returned is in the WAL and survives the crash (fsync off only matters if
                    // the machine itself crashes).
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "200")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start embedded PostgreSQL in " + dataDir + " on port " + port, e);
        }
    }

    /**
     * Immediate shutdown: SIGQUIT to the postmaster (its pid is the first line of
     * {@code postmaster.pid}), then waits until it is gone and the port refuses connections, then lets
     * zonky release its lock on the data directory.
     *
     * @return how it was stopped, for the report
     */
    public String stopImmediately() {
        long pid = postmasterPid();
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException("postmaster " + pid + " is not running"));
        signal("QUIT", pid);
        String mode = "immediate (SIGQUIT to postmaster " + pid + ")";
        try {
            postmaster.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception notGone) {
            // Never seen; if it happens the report says so instead of pretending it was immediate.
            signal("KILL", pid);
            mode = "SIGKILL to postmaster " + pid + " (SIGQUIT left it running for 30 s)";
        }
        awaitPortClosed();
        try {
            postgres.close(); // pg_ctl stop finds nothing running; zonky only releases its lock
        } catch (IOException | RuntimeException e) {
            LOG.warning("zonky's close after the immediate stop complained: " + e);
        }
        postgres = null;
        lastStopMode = mode;
        return mode;
    }

    /** Starts PostgreSQL again on the same data directory and port (crash recovery runs first). */
    public void restart() {
        if (postgres != null) {
            throw new IllegalStateException("PostgreSQL is running");
        }
        startPostgres();
    }

    public boolean running() {
        return postgres != null;
    }

    public String lastStopMode() {
        return lastStopMode;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    /** The system properties that point WildFly's datasource at this database. */
    public String[] serverProperties() {
        return new String[] {"-Ddispatch.db.url=" + url(), "-Ddispatch.db.user=" + USER, "-Ddispatch.db.password=" + PASSWORD};
    }

    /** A new connection each time: the harness's connections must not outlive a database restart. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), USER, PASSWORD);
    }

    private long postmasterPid() {
        try {
            return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("No postmaster.pid in " + dataDir, e);
        }
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void awaitPortClosed() {
        await("port " + port + " refusing connections after the immediate stop")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> !accepts(port));
    }

    private static boolean accepts(int port) {
        try (Socket probe = new Socket("localhost", port)) {
            return probe.isConnected();
        } catch (IOException refused) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        closeQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // already running the hooks
        }
    }

    private void closeQuietly() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                LOG.warning("Could not stop PostgreSQL: " + e);
            }
            postgres = null;
        }
    }
}
