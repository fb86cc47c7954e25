package io.dispatchpolicy.devserver;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.nio.file.Path;

/**
 * Starts the system tests' database before any test class, so before Arquillian boots WildFly, and
 * stops it after the last. The data directory is wiped first: every run starts from an empty schema.
 * Inert outside the system tests (no {@code dispatch.test.pg.port} property).
 */
public class EmbeddedPostgresSession implements LauncherSessionListener {

    private Database database;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String port = System.getProperty("dispatch.test.pg.port");
        if (port == null || database != null) {
            return;
        }
        Path dir = Path.of(System.getProperty("dispatch.test.pg.dir", "target/test-pgdata"));
        deleteRecursively(dir);
        database = Database.startOrConnect(dir, Integer.parseInt(port));
        System.setProperty("dispatch.test.db.url", database.url());
        System.setProperty("dispatch.test.db.user", database.user());
        System.setProperty("dispatch.test.db.password", database.password());
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!dir.toFile().exists()) {
            return;
        }
        try (var paths = java.nio.file.Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
