package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The README's run command: PostgreSQL first (JBeret's repository needs it at boot), then the
 * provisioned WildFly with the EAR and the demo deployed, until Ctrl-C (or SIGTERM) stops both.
 *
 * <p>State lives under the run directory ({@code .run/} at the repository root unless
 * {@code DISPATCH_RUN_DIR} names another, see {@link RunSettings}): the embedded database's data and
 * WildFly's data and logs survive a restart, and so does the server configuration once copied from
 * the build ({@link KeptConfiguration}); the EAR is the build's, refreshed every time.
 */
public final class DevServer {

    /** The line that says the server is up starts with this, then the console's URL. */
    public static final String UP = "==> Dispatch Policy is up: ";
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);

    private DevServer() {
    }

    public static void main(String[] args) throws Exception {
        RunSettings run;
        Path jbossHome;
        Path ear;
        try {
            run = RunSettings.from(System.getenv(), System.getProperty("dispatch.run.dir"));
            jbossHome = Path.of(required("jboss.home"));
            ear = Path.of(required("dispatch.ear"));
            refuseTaken(run.httpPort(), "WildFly's HTTP port");
            refuseTaken(run.managementPort(), "WildFly's management port");
            if (!Database.externalConfigured()) {
                refuseTaken(run.pgPort(), "the embedded PostgreSQL's port (" + RunSettings.PG_PORT + ")");
            }
        } catch (RunSettings.InvalidRunSetting e) {
            System.err.println("Not started: " + e.getMessage());
            System.exit(2);
            return;
        }
        run.notes().forEach(System.out::println);
        Path runDir = run.runDir();

        Database db = Database.startOrConnect(runDir.resolve("pgdata"), run.pgPort(), Database.Durability.DURABLE);
        AtomicReference<Process> server = new AtomicReference<>();
        Path base = runDir.resolve("standalone");
        Path deployments = base.resolve("deployments");
        // Registered before anything else can fail: PostgreSQL has no shutdown hook of its own.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping WildFly, then PostgreSQL...");
            if (server.get() != null) {
                stop(server.get(), deployments);
            }
            db.close();
            System.out.println("Stopped.");
        }, "dispatch-devserver-shutdown"));
        System.out.println(db.embedded()
                ? "Embedded PostgreSQL on port " + run.pgPort() + " (durable: fsync and synchronous commit on), data in "
                        + runDir.resolve("pgdata")
                : "Using the external PostgreSQL at " + db.url());

        KeptConfiguration.prepare(jbossHome.resolve("standalone/configuration"), base.resolve("configuration"), run.resetConfig())
                .message().ifPresent(System.out::println);
        String adminPassword = adminPassword(runDir);
        ConsoleAccounts.write(base.resolve("configuration"), Map.of(
                "admin", new ConsoleAccounts.Account(adminPassword, "dispatch-admin")));
        freshDeployment(ear, deployments);

        BootLog log = BootLog.mark(base.resolve("log/server.log"));
        // SIGINT ignored (which standalone.sh and the JVM it starts keep): Ctrl-C in the terminal reaches
        // the whole process group, and WildFly must be stopped by the shutdown hook below, in order.
        List<String> command = new ArrayList<>(List.of("sh", "-c", "trap '' INT; exec \"$0\" \"$@\"",
                jbossHome.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base,
                "-Djboss.socket.binding.port-offset=" + run.portOffset()));
        command.addAll(List.of(db.serverProperties()));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        RunSettings.removeFrom(builder.environment());
        // Makes standalone.sh forward SIGTERM to WildFly's JVM instead of dying and orphaning it.
        builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        server.set(builder.start());

        String url = "http://localhost:" + run.httpPort() + "/dispatch/";
        String notUp = awaitUp(url, server.get(), log, deployments.resolve(DemoEar.NAME + ".failed"));
        if (notUp != null) {
            System.err.println("Not up: " + notUp + "; see " + log.file());
            System.exit(1);
        }
        System.out.println();
        System.out.println(UP + url + "  (demo jobs are flowing; Ctrl-C stops everything)");
        System.out.println("==> Log in as admin / " + adminPassword + "  (kept in " + runDir.resolve("admin-password")
                + "; JSON summary: curl -u admin:" + adminPassword + " " + url + "api/summary)");
        System.out.println("==> Playground: " + url + "playground  (one card per feature, and a storm of many tenants)");
        System.out.println("==> Management: " + jbossHome.resolve("bin/jboss-cli.sh") + " --connect --controller=localhost:"
                + run.managementPort() + "  (changes are kept across runs)");
        System.out.println();
        System.exit(server.get().waitFor());
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

    /** The build's EAR with the demo, and no marker of the previous run's deployment left. */
    private static void freshDeployment(Path builtEar, Path deployments) throws IOException {
        Files.createDirectories(deployments);
        for (String marker : List.of(".deployed", ".failed", ".isdeploying", ".pending", ".undeployed")) {
            Files.deleteIfExists(deployments.resolve(DemoEar.NAME + marker));
        }
        DemoEar.export(builtEar, deployments);
    }

    /**
     * WildFly first and completely: it must not outlive the database it writes to. And the EAR is
     * undeployed before WildFly is told to stop: a shutdown stops the batch runtime's job repository
     * while jobs it has just stopped may still be writing their end, and stops every running job once
     * per module of the EAR, which fails loudly for a job that ended in between; both log ERRORs. An
     * undeploy leaves the repository up while the engine stops and awaits its running jobs.
     */
    private static void stop(Process server, Path deployments) {
        Path deployed = deployments.resolve(DemoEar.NAME + ".deployed");
        Path undeployed = deployments.resolve(DemoEar.NAME + ".undeployed");
        try {
            // the deployment scanner's way to undeploy; it answers with the .undeployed marker
            if (server.isAlive() && Files.deleteIfExists(deployed)) {
                System.out.println("Undeploying " + DemoEar.NAME + "...");
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (server.isAlive() && !Files.exists(undeployed) && System.nanoTime() < deadline) {
                    server.waitFor(200, TimeUnit.MILLISECONDS);
                }
            }
        } catch (IOException | InterruptedException e) {
            System.out.println("Could not undeploy first (" + e + "); stopping WildFly");
        }
        List<ProcessHandle> all = new ArrayList<>(server.descendants().toList());
        all.add(server.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    /**
     * Waits until this run's WildFly is up: its own {@code server.log} says this boot started
     * (another server answering on the port would not write there) and the console answers on this
     * run's port.
     *
     * @return null when up, otherwise why not
     */
    private static String awaitUp(String url, Process server, BootLog log, Path failedMarker) throws Exception {
        long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                return "WildFly exited (status " + server.exitValue() + ") before it was up";
            }
            if (Files.exists(failedMarker)) {
                String why = Files.readString(failedMarker).strip().replaceAll("\\s*\\R\\s*", " ");
                return "the deployment failed: " + (why.length() > 300 ? why.substring(0, 300) + "…" : why);
            }
            List<String> lines = log.lines();
            if (lines.stream().anyMatch(l -> l.contains(BootLog.STARTED_WITH_ERRORS))) {
                return "WildFly started with errors: " + lines.stream().filter(l -> l.contains(" ERROR ")).findFirst()
                        .orElse("(no ERROR line)");
            }
            if (lines.stream().anyMatch(l -> l.contains(BootLog.STARTED)) && answers(url)) {
                return null;
            }
            server.waitFor(500, TimeUnit.MILLISECONDS);
        }
        return "WildFly did not come up within " + BOOT_TIMEOUT.toMinutes() + " minutes";
    }

    private static boolean answers(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(5000);
            return c.getResponseCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Something already listening there would make this run's server fail, or be taken for it. */
    private static void refuseTaken(int port, String what) {
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress("localhost", port), 500);
        } catch (IOException free) {
            return;
        }
        throw new RunSettings.InvalidRunSetting(what + " " + port + " is in use (another server?); "
                + "choose others with " + RunSettings.PORT_OFFSET + " / " + RunSettings.PG_PORT);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new RunSettings.InvalidRunSetting("System property " + property + " is not set; start with ./mvnw -Prun verify");
        }
        return value;
    }
}
