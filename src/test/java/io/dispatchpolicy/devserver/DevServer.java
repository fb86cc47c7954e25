package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's run command: PostgreSQL first (JBeret's repository needs it at boot), then the
 * provisioned WildFly with the EAR and the demo ({@link DemoEar}) deployed, until Ctrl-C stops both.
 *
 * <p>State lives under the run directory ({@code .run/} at the repository root unless
 * {@code DISPATCH_RUN_DIR} names another): the embedded database's data and WildFly's data and logs
 * survive a restart; the server configuration and the EAR are refreshed from the build every time.
 */
public final class DevServer {

    private DevServer() {
    }

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(required("jboss.home"));
        Path ear = Path.of(required("dispatch.ear"));
        Path runDir = Path.of(Database.envOr("DISPATCH_RUN_DIR", required("dispatch.run.dir"))).toAbsolutePath();
        int pgPort = Integer.parseInt(Database.envOr("DISPATCH_PG_PORT", "55432"));

        Database db = Database.startOrConnect(runDir.resolve("pgdata"), pgPort, Database.Durability.DURABLE);
        System.out.println(db.embedded()
                ? "Embedded PostgreSQL on port " + pgPort + " (durable: fsync and synchronous commit on), data in "
                        + runDir.resolve("pgdata")
                : "Using the external PostgreSQL at " + db.url());

        Path base = prepareBaseDir(jbossHome, runDir.resolve("standalone"), ear);
        String adminPassword = adminPassword(runDir);
        ConsoleAccounts.write(base.resolve("configuration"), java.util.Map.of(
                "admin", new ConsoleAccounts.Account(adminPassword, "dispatch-admin")));
        List<String> command = new ArrayList<>(List.of(jbossHome.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base));
        command.addAll(List.of(db.serverProperties()));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        // Makes standalone.sh forward SIGTERM to WildFly's JVM instead of dying and orphaning it.
        builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        Process server = builder.start();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping WildFly, then PostgreSQL...");
            stop(server);
            db.close();
            System.out.println("Stopped.");
        }, "dispatch-devserver-shutdown"));

        String url = "http://localhost:8080/dispatch/";
        if (awaitUp(url, server, Duration.ofMinutes(3))) {
            System.out.println();
            System.out.println("==> Dispatch Policy is up: " + url + "  (demo jobs are flowing; Ctrl-C stops everything)");
            System.out.println("==> Log in as admin / " + adminPassword + "  (kept in " + runDir.resolve("admin-password")
                    + "; JSON summary: curl -u admin:" + adminPassword + " " + url + "api/summary)");
            System.out.println();
        }
        System.exit(server.waitFor());
    }

    /** The local admin's password: generated once, then kept in the run directory. */
    private static String adminPassword(Path runDir) throws IOException {
        Path file = runDir.resolve("admin-password");
        if (Files.exists(file)) {
            return Files.readString(file).strip();
        }
        byte[] random = new byte[12];
        new java.security.SecureRandom().nextBytes(random);
        String password = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.createDirectories(runDir);
        Files.writeString(file, password + "\n");
        return password;
    }

    /** WildFly first and completely: it must not outlive the database it writes to. */
    private static void stop(Process server) {
        List<ProcessHandle> all = new ArrayList<>(server.descendants().toList());
        all.add(server.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    /** A server base directory of our own: fresh configuration, the build's EAR with the demo, kept data and logs. */
    private static Path prepareBaseDir(Path jbossHome, Path base, Path ear) throws IOException {
        Path pristine = jbossHome.resolve("standalone");
        Trees.copy(pristine.resolve("configuration"), base.resolve("configuration"));
        Files.createDirectories(base.resolve("deployments"));
        Files.createDirectories(base.resolve("data"));
        Files.deleteIfExists(base.resolve("deployments/dispatch.ear.failed"));
        Files.deleteIfExists(base.resolve("deployments/dispatch.ear.deployed"));
        DemoEar.export(ear, base.resolve("deployments"));
        return base;
    }

    private static boolean awaitUp(String url, Process server, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && server.isAlive()) {
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
                c.setConnectTimeout(1000);
                c.setReadTimeout(1000);
                if (c.getResponseCode() == 200) {
                    return true;
                }
            } catch (IOException notYet) {
                // still booting
            }
            Thread.sleep(500);
        }
        return false;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("System property " + property + " is not set; start with ./mvnw -Prun verify");
        }
        return value;
    }
}
