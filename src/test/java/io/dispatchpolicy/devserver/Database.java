package io.dispatchpolicy.devserver;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The PostgreSQL the server uses: the external one named by {@code DISPATCH_DB_URL} (with
 * {@code DISPATCH_DB_USER} and {@code DISPATCH_DB_PASSWORD}) when that is set, otherwise an embedded
 * PostgreSQL on {@code port} whose data directory is kept, so data survives a restart: durable for
 * the run command, fast for the system tests ({@link Durability}).
 */
public final class Database implements AutoCloseable {

    public static final String URL_ENV = "DISPATCH_DB_URL";
    public static final String USER_ENV = "DISPATCH_DB_USER";
    public static final String PASSWORD_ENV = "DISPATCH_DB_PASSWORD";

    private final EmbeddedPostgres embedded;
    private final String url;
    private final String user;
    private final String password;

    private Database(EmbeddedPostgres embedded, String url, String user, String password) {
        this.embedded = embedded;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /**
     * How much an embedded PostgreSQL may lose. zonky starts it with {@code -F} (fsync off) and
     * {@code synchronous_commit=off}: fast, and fine for data thrown away after a test run, but a
     * crash of the machine (or of PostgreSQL, for the last commits) could lose or corrupt what an
     * operator keeps.
     */
    public enum Durability {
        /** The run command's: data kept across runs, so fsync, synchronous commit and full-page writes on. */
        DURABLE,
        /** The system tests': a fresh database every run, zonky's fast settings. */
        FAST
    }

    public static Database startOrConnect(Path dataDirectory, int port, Durability durability) {
        if (externalConfigured()) {
            return new Database(null, System.getenv(URL_ENV), envOr(USER_ENV, "postgres"), envOr(PASSWORD_ENV, "postgres"));
        }
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    // stopped by its owner, after WildFly: its own hook would race WildFly's shutdown
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "256MB");
            if (Boolean.getBoolean("dispatch.test.pg.statements")) {
                // the benchmark's profile (-Dbench.statements=true): what each case spent, statement by
                // statement, and the plan of every statement slower than 1 ms in the data directory's log/
                builder.setServerConfig("shared_preload_libraries", "pg_stat_statements,auto_explain")
                        .setServerConfig("pg_stat_statements.track_planning", "on")
                        .setServerConfig("auto_explain.log_min_duration", "1ms")
                        .setServerConfig("logging_collector", "on");
                if (Boolean.getBoolean("dispatch.test.pg.explain")) {
                    // -Dbench.explain=true: with the rows and buffers each plan really read (not timings: their
                    // clock reads would slow every statement more), which instruments every statement
                    builder.setServerConfig("auto_explain.log_analyze", "on")
                            .setServerConfig("auto_explain.log_buffers", "on")
                            .setServerConfig("auto_explain.log_timing", "off");
                }
            }
            if (durability == Durability.DURABLE) {
                // zonky's command line is "-p PORT -F -c k=v...": a later -c fsync=on overrides -F.
                builder.setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setServerConfig("full_page_writes", "on")
                        // crash recovery of kept data after an unclean stop can outlast zonky's 10 s
                        .setPGStartupWait(Duration.ofSeconds(120));
            }
            EmbeddedPostgres pg = builder.start();
            return new Database(pg, "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start embedded PostgreSQL in " + dataDirectory, e);
        }
    }

    /** True when {@code DISPATCH_DB_URL} names a database: nothing is embedded then. */
    public static boolean externalConfigured() {
        return !envOr(URL_ENV, "").isEmpty();
    }

    /** The environment variable's value, or the fallback when it is unset or blank. */
    static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    public boolean embedded() {
        return embedded != null;
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** The system properties that point WildFly's datasource at this database. */
    public String[] serverProperties() {
        return new String[] {"-Ddispatch.db.url=" + url, "-Ddispatch.db.user=" + user, "-Ddispatch.db.password=" + password};
    }

    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
