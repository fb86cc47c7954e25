package io.dispatchpolicy.devserver;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The PostgreSQL the server uses: the external one named by {@code DISPATCH_DB_URL} (with
 * {@code DISPATCH_DB_USER} and {@code DISPATCH_DB_PASSWORD}) when that is set, otherwise an embedded
 * PostgreSQL on {@code port} whose data directory is kept, so data survives a restart.
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

    public static Database startOrConnect(Path dataDirectory, int port) {
        String external = System.getenv(URL_ENV);
        if (external != null && !external.isBlank()) {
            return new Database(null, external, envOr(USER_ENV, "postgres"), envOr(PASSWORD_ENV, "postgres"));
        }
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    // stopped by its owner, after WildFly: its own hook would race WildFly's shutdown
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "256MB")
                    .start();
            return new Database(pg, "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start embedded PostgreSQL in " + dataDirectory, e);
        }
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
