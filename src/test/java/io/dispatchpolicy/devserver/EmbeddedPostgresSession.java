package io.dispatchpolicy.devserver;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.nio.file.Path;

/**
 * Prepares what WildFly needs before Arquillian boots it for the system tests: the database (started
 * before any test class, stopped after the last; its data directory wiped first, so every run starts
 * from an empty schema) and the console's test accounts. Inert outside the system tests (no
 * {@code dispatch.test.pg.port} property).
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
        Trees.delete(dir);
        // the benchmark's durable run (-Dbench.durable=true): PostgreSQL as production runs it
        Database.Durability durability = Boolean.getBoolean("dispatch.test.pg.durable")
                ? Database.Durability.DURABLE : Database.Durability.FAST;
        database = Database.startOrConnect(dir, Integer.parseInt(port), durability);
        System.setProperty("dispatch.test.db.url", database.url());
        System.setProperty("dispatch.test.db.user", database.user());
        System.setProperty("dispatch.test.db.password", database.password());
        ConsoleAccounts.write(Path.of(System.getProperty("jboss.home"), "standalone", "configuration"), TEST_ACCOUNTS);
    }

    /** The console accounts the browser tests log in with. */
    public static final java.util.Map<String, ConsoleAccounts.Account> TEST_ACCOUNTS = java.util.Map.of(
            "admin", new ConsoleAccounts.Account("admin-secret", "dispatch-admin"),
            "operator", new ConsoleAccounts.Account("operator-secret", "dispatch-operator"),
            // IdentityIT: a job submitted by "reporter" may call the role "reports"; one by "plain" may not
            "reporter", new ConsoleAccounts.Account("reporter-secret", "reports"),
            "plain", new ConsoleAccounts.Account("plain-secret", "dispatch-viewer"),
            "viewer", new ConsoleAccounts.Account("viewer-secret", "dispatch-viewer"));

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (database != null) {
            database.close();
            database = null;
        }
    }
}
