package io.dispatchpolicy.devserver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run command ({@code ./mvnw -Prun verify}) as an operator uses it, not through Arquillian:
 * {@link DevServer} in a JVM of its own with its own variables, WildFly on ports offset by 500 (the
 * Arquillian server has 8080/9990, the fault suite 300 and 400 above), an embedded PostgreSQL on a
 * free port. It proves that the run command's variables do not reach WildFly, that it knows its own
 * server, that its PostgreSQL is durable, that a {@code jboss-cli} change survives a restart, and
 * that a stop is clean.
 */
class RunCommandIT {

    private static final int OFFSET = 500;
    private static final int HTTP_PORT = 8080 + OFFSET;
    private static final int MANAGEMENT_PORT = 9990 + OFFSET;
    private static final Duration UP_WITHIN = Duration.ofMinutes(5);
    private static final Duration STOPPED_WITHIN = Duration.ofMinutes(3);
    private static final String CHANGED_PROPERTY = "/system-property=dispatch.admission-batch-size";

    private static final Path ALL = Path.of(System.getProperty("run.command.dir", "target/run-command-it")).toAbsolutePath();

    /** This test's own directory: its run directory and the run command's console logs. */
    private Path dir;
    private Path runDir;
    private final Path jbossHome = Path.of(System.getProperty("jboss.home"));
    private final List<RunCommandProcess> started = new ArrayList<>();

    @BeforeEach
    void freshDirectory(TestInfo test) {
        dir = ALL.resolve(test.getTestMethod().orElseThrow().getName());
        runDir = dir.resolve("run");
        Trees.delete(dir);
    }

    @AfterEach
    void stopWhatIsLeft() throws IOException {
        started.forEach(RunCommandProcess::close);
        // PostgreSQL runs detached from the run command: only a clean stop of it stops PostgreSQL.
        Path pid = runDir.resolve("pgdata/postmaster.pid");
        if (Files.exists(pid)) {
            ProcessHandle.of(Long.parseLong(Files.readAllLines(pid).get(0).strip())).ifPresent(ProcessHandle::destroy);
        }
    }

    @Test
    void refusesBadValuesBeforeStartingAnything() throws Exception {
        Map<String, String> badPort = Map.of(RunSettings.DIR, runDir.toString(), RunSettings.PG_PORT, "5543x");
        Map<String, String> badOffset = Map.of(RunSettings.DIR, runDir.toString(), RunSettings.PORT_OFFSET, "-1");
        for (Map<String, String> env : List.of(badPort, badOffset)) {
            String variable = env.keySet().stream().filter(k -> !k.equals(RunSettings.DIR)).findFirst().orElseThrow();
            assertRefused(launch(env, "refused-" + variable), variable + "='" + env.get(variable) + "'");
        }
    }

    @Test
    void refusesToStartWhereAnotherServerAnswers() throws Exception {
        assertFree(HTTP_PORT);
        try (ServerSocket another = new ServerSocket(HTTP_PORT, 50, InetAddress.getLoopbackAddress())) {
            RunCommandProcess run = launch(Map.of(RunSettings.DIR, runDir.toString(),
                    RunSettings.PORT_OFFSET, Integer.toString(OFFSET)), "refused-port-taken");
            assertRefused(run, "HTTP port " + another.getLocalPort() + " is in use");
        }
    }

    /** Exit status 2 with one line that names the problem, no stack trace, and nothing started or written. */
    private void assertRefused(RunCommandProcess run, String naming) throws InterruptedException {
        assertThat(run.awaitExit(Duration.ofMinutes(1))).as("exit status").isEqualTo(2);
        List<String> said = run.console().lines().toList();
        assertThat(said).filteredOn(l -> l.startsWith("Not started: ")).singleElement().asString().contains(naming);
        assertThat(said).as("one line, no stack trace").noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception"));
        assertThat(runDir).doesNotExist();
    }

    @Test
    void runsOnItsOwnPortsKeepsOperatorChangesAndStopsCleanly() throws Exception {
        assertFree(HTTP_PORT);
        assertFree(MANAGEMENT_PORT);
        int pgPort = freePortOtherThan(-1);
        Map<String, String> env = Map.of(
                RunSettings.DIR, runDir.toString(),
                RunSettings.PG_PORT, Integer.toString(pgPort),
                RunSettings.PORT_OFFSET, Integer.toString(OFFSET),
                // the old name, which WildFly once read as an unknown dispatch.pg.port and failed the deployment
                RunSettings.OLD_PG_PORT, Integer.toString(freePortOtherThan(pgPort)));
        // what the build would pass; DISPATCH_RUN_DIR must win over it
        Path buildsRunDir = dir.resolve("not-this-one");
        Path serverLog = runDir.resolve("standalone/log/server.log");

        RunCommandProcess first = launch(env, "first");
        assertThat(first.awaitUp(UP_WITHIN)).isEqualTo("http://localhost:" + HTTP_PORT + "/dispatch/");
        assertThat(first.console()).contains("DISPATCH_PG_PORT is deprecated and ignored", "Server configuration copied from the build");
        assertThat(buildsRunDir).doesNotExist();
        ProcessHandle wildFly = first.wildFlyJvm().orElseThrow();
        assertThat(environmentOf(wildFly)).noneMatch(v -> v.startsWith("DISPATCH_RUN_") || v.startsWith("DISPATCH_PG_PORT="));
        // Ctrl-C in a terminal signals the whole process group: WildFly must leave it to the run command
        assertThat(ignoresSigint(wildFly)).as("WildFly's JVM ignores SIGINT").isTrue();
        assertThat(wildFly.parent().map(RunCommandIT::ignoresSigint)).as("standalone.sh ignores SIGINT").contains(true);

        HttpResponse<String> summary = summary(Files.readString(runDir.resolve("admin-password")).strip());
        assertThat(summary.statusCode()).isEqualTo(200);
        assertThat(summary.headers().firstValue("Content-Type")).get().asString().contains("json");
        assertThat(summary.body()).startsWith("{");

        try (Connection db = DriverManager.getConnection("jdbc:postgresql://localhost:" + pgPort + "/postgres", "postgres", "postgres")) {
            await("demo-report jobs admitted and completed").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> count(db, "SELECT count(*) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid"
                            + " WHERE i.jobname = 'demo-report' AND e.batchstatus = 'COMPLETED'") > 0);
            for (String setting : List.of("fsync", "synchronous_commit", "full_page_writes")) {
                assertThat(show(db, setting)).as(setting).isEqualTo("on");
            }
        }

        assertThat(cli(CHANGED_PROPERTY + ":read-attribute(name=value)")).contains("\"result\" => \"100\"");
        cli(CHANGED_PROPERTY + ":write-attribute(name=value, value=200)");
        stopCleanly(first, serverLog);
        assertThat(first.console()).contains("Stopped.");
        assertPostgresStopped(pgPort);

        RunCommandProcess second = launch(env, "second");
        second.awaitUp(UP_WITHIN);
        assertThat(cli(CHANGED_PROPERTY + ":read-attribute(name=value)")).contains("\"result\" => \"200\"");
        assertThat(second.console()).doesNotContain(KeptConfiguration.BUILD_CHANGED).doesNotContain("Server configuration copied");
        stopCleanly(second, serverLog);

        assertThat(Files.readAllLines(serverLog)).as("server.log of both runs").noneMatch(l -> l.contains(" ERROR "));
    }

    private RunCommandProcess launch(Map<String, String> env, String name) {
        RunCommandProcess run = RunCommandProcess.start(env, dir.resolve("not-this-one"), dir.resolve("console-" + name + ".log"));
        started.add(run);
        return run;
    }

    /** SIGTERM to the run command; WildFly's clean stop must log no ERROR. */
    private static void stopCleanly(RunCommandProcess run, Path serverLog) throws InterruptedException {
        BootLog stopping = BootLog.mark(serverLog);
        run.stop(STOPPED_WITHIN);
        List<String> stop = stopping.lines();
        assertThat(stop).as("server.log of the stop").anyMatch(l -> l.contains("WFLYSRV0050"))
                .noneMatch(l -> l.contains(" ERROR "));
    }

    /** {@code jboss-cli} of the provisioned server against this run's management port; its output. */
    private String cli(String command) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder(jbossHome.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=localhost:" + MANAGEMENT_PORT, "--command=" + command)
                .redirectErrorStream(true).start();
        String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cli.waitFor(2, TimeUnit.MINUTES)).as("jboss-cli ended").isTrue();
        assertThat(cli.exitValue()).as("jboss-cli " + command + ":\n" + output).isZero();
        assertThat(output).contains("\"outcome\" => \"success\"");
        return output;
    }

    private static HttpResponse<String> summary(String adminPassword) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + HTTP_PORT + "/dispatch/api/summary"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("admin:" + adminPassword).getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30)).GET().build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The process's environment, {@code NAME=value} each, as the kernel has it. */
    private static List<String> environmentOf(ProcessHandle process) throws IOException {
        byte[] environ = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "environ"));
        return List.of(new String(environ, StandardCharsets.UTF_8).split("\0"));
    }

    /** Whether the process ignores SIGINT (signal 2): bit 1 of the SigIgn mask in /proc/PID/status. */
    private static boolean ignoresSigint(ProcessHandle process) {
        try {
            String mask = Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                    .filter(l -> l.startsWith("SigIgn:")).findFirst().orElseThrow().substring("SigIgn:".length()).strip();
            return (new java.math.BigInteger(mask, 16).longValue() & 0b10) != 0;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String show(Connection db, String setting) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void assertFree(int port) {
        assertThat(accepts(port)).as("port " + port + " is taken: this test needs it free").isFalse();
    }

    private static void assertPostgresStopped(int pgPort) {
        assertThat(accepts(pgPort)).as("PostgreSQL stopped with the run command").isFalse();
    }

    private static boolean accepts(int port) {
        try (Socket probe = new Socket("localhost", port)) {
            return probe.isConnected();
        } catch (IOException refused) {
            return false;
        }
    }

    private static int freePortOtherThan(int taken) throws IOException {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0)) {
                if (socket.getLocalPort() != taken) {
                    return socket.getLocalPort();
                }
            }
        }
    }
}
