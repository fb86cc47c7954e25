package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.testing.TestServerJvm;

import io.dispatchpolicy.devserver.ConsoleAccounts;
import io.dispatchpolicy.devserver.Trees;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The provisioned WildFly run as an operator runs it: {@code bin/standalone.sh} on a base directory of
 * the scenario's own (configuration copied from the provisioned server, data and logs kept across
 * restarts), ports offset so it never meets the Arquillian server, the fault EAR in its deployments.
 *
 * <p>{@code LAUNCH_JBOSS_IN_BACKGROUND=1} makes the script run the JVM as a child and forward SIGTERM
 * to it. So a clean stop is SIGTERM to the script, while a crash must hit the JVM itself: SIGKILL to
 * the script alone would orphan a live server.
 */
public final class FaultServer implements AutoCloseable {

    private static final String EAR = "dispatch.ear";

    private final String label;
    private final Path jbossHome;
    private final Path baseDir;
    private final Path outputDir;
    private final List<String> properties;
    private final int portOffset;
    private final ServerLog log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread cleanup = new Thread(this::killQuietly, "fault-server-cleanup");
    private Process launcher;
    private int run;
    private int savedRun;
    private long runLogStart;

    private FaultServer(String label, Path jbossHome, Path baseDir, Path outputDir, List<String> properties, int portOffset) {
        this.label = label;
        this.jbossHome = jbossHome;
        this.baseDir = baseDir;
        this.outputDir = outputDir;
        this.properties = properties;
        this.portOffset = portOffset;
        this.log = new ServerLog(baseDir.resolve("log/server.log"));
    }

    /**
     * A fresh base directory under {@code outputDir/standalone} with the provisioned configuration and
     * {@code ear} deployed; nothing started yet. Its console and run logs go to {@code outputDir} too.
     *
     * @param label how messages name it ("WildFly", "WildFly b")
     */
    public static FaultServer prepare(String label, FaultSettings settings, Path outputDir, Path ear, List<String> properties,
                                      int portOffset) {
        Path base = outputDir.resolve("standalone");
        Trees.delete(base);
        Trees.copy(settings.jbossHome().resolve("standalone/configuration"), base.resolve("configuration"));
        ConsoleAccounts.write(base.resolve("configuration"), Map.of(CONSOLE_USER,
                new ConsoleAccounts.Account(CONSOLE_PASSWORD, "dispatch-viewer"),
                OPERATOR_USER, new ConsoleAccounts.Account(OPERATOR_PASSWORD, "dispatch-operator")));
        try {
            Files.createDirectories(base.resolve("deployments"));
            Files.createDirectories(base.resolve("data"));
            Files.copy(ear, base.resolve("deployments/" + EAR), StandardCopyOption.REPLACE_EXISTING);
            overrideSystemProperties(base.resolve("configuration/standalone.xml"), properties);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FaultServer server = new FaultServer(label, settings.jbossHome(), base, outputDir, properties, portOffset);
        Runtime.getRuntime().addShutdownHook(server.cleanup);
        return server;
    }

    /**
     * A {@code -Dkey=value} of this server whose key standalone.xml's {@code <system-properties>} also sets (as
     * dispatch.cli writes the engine's defaults there) would lose to the file (WFLYCTL0456): the copy's value is
     * rewritten instead, so a scenario's property always applies.
     */
    private static void overrideSystemProperties(Path standaloneXml, List<String> properties) throws IOException {
        String xml = Files.readString(standaloneXml);
        for (String property : properties) {
            int eq = property.indexOf('=');
            if (!property.startsWith("-D") || eq < 0) {
                continue;
            }
            String key = property.substring(2, eq);
            String value = property.substring(eq + 1);
            xml = xml.replaceAll("(<property name=\"" + java.util.regex.Pattern.quote(key) + "\" value=\")[^\"]*(\"/>)",
                    "$1" + java.util.regex.Matcher.quoteReplacement(value) + "$2");
        }
        Files.writeString(standaloneXml, xml);
    }

    /** Launches {@code standalone.sh}; returns at once (see {@link #awaitDeployed}). */
    public void start() {
        if (launcher != null && launcher.isAlive()) {
            throw new IllegalStateException(label + " is running");
        }
        // Markers of the previous run: the scanner writes .deployed again when this run has deployed.
        for (String marker : List.of(".deployed", ".failed", ".isdeploying", ".pending")) {
            deleteIfExists(baseDir.resolve("deployments/" + EAR + marker));
        }
        run++;
        runLogStart = log.mark();
        List<String> command = new ArrayList<>(List.of(jbossHome.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + baseDir,
                "-Djboss.socket.binding.port-offset=" + portOffset));
        command.addAll(properties);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(outputDir.resolve("console-run-" + run + ".log").toFile());
        builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        builder.environment().putIfAbsent("JBOSS_JAVA_SIZING", TestServerJvm.SIZING);
        try {
            launcher = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the deployment scanner has deployed the EAR and the fault WAR answers. Fails at once
     * when the deployment failed or the server exited.
     */
    public void awaitDeployed(Duration timeout) {
        Path failed = baseDir.resolve("deployments/" + EAR + ".failed");
        await(label + " run " + run + " deploying " + EAR).atMost(timeout).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (Files.exists(failed)) {
                throw new IllegalStateException("Deployment failed: " + Files.readString(failed));
            }
            if (!launcher.isAlive()) {
                throw new IllegalStateException(label + " exited with " + launcher.exitValue() + " before deploying; see "
                        + outputDir.resolve("console-run-" + run + ".log"));
            }
            return Files.exists(baseDir.resolve("deployments/" + EAR + ".deployed")) && pingAnswers();
        });
    }

    private boolean pingAnswers() {
        try {
            HttpRequest ping = HttpRequest.newBuilder(baseUri().resolve("ping")).timeout(Duration.ofSeconds(2)).GET().build();
            return http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A console account that may act on jobs: the scenario that stops jobs from another node uses it. */
    public static final String OPERATOR_USER = "fault-operator";
    public static final String OPERATOR_PASSWORD = "fault-operator-secret";

    /** A POST to the console's API as the operator account ({@code jobs/12/stop}): the HTTP status and body. */
    public Map.Entry<Integer, String> postAsOperator(String apiPath) {
        return api(apiPath, OPERATOR_USER, OPERATOR_PASSWORD, Duration.ofSeconds(10), HttpRequest.Builder::POST);
    }

    /** A console account of the fault server, to read {@code /dispatch/api/summary}. */
    public static final String CONSOLE_USER = "fault-viewer";
    public static final String CONSOLE_PASSWORD = "fault-viewer-secret";

    /**
     * GET of the console's JSON summary: the HTTP status and body ({@code -1} and the error when the
     * server does not answer).
     */
    public Map.Entry<Integer, String> summary() {
        return api("summary", CONSOLE_USER, CONSOLE_PASSWORD, Duration.ofSeconds(5), (b, none) -> b.GET());
    }

    /** A request to {@code /dispatch/api/<path>} as {@code user}: the status and body ({@code -1} and the error when none). */
    private Map.Entry<Integer, String> api(String path, String user, String password, Duration timeout,
                                           java.util.function.BiFunction<HttpRequest.Builder, HttpRequest.BodyPublisher, HttpRequest.Builder> method) {
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + (8080 + portOffset) + "/dispatch/api/" + path))
                    .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                            (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .timeout(timeout);
            HttpRequest request = method.apply(builder, HttpRequest.BodyPublishers.noBody()).build();
            HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            return Map.entry(response.statusCode(), response.body());
        } catch (IOException e) {
            return Map.entry(-1, String.valueOf(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.entry(-1, String.valueOf(e));
        }
    }

    /** The fault WAR's root, e.g. {@code http://localhost:8380/fault/}. */
    public URI baseUri() {
        return URI.create("http://localhost:" + (8080 + portOffset) + "/fault/");
    }

    /**
     * A POST to the fault WAR ({@code submit-job?job=…}): the submission ids it answers, one a line.
     *
     * @throws IllegalStateException when it does not answer 200
     */
    public List<Long> postToFault(String pathAndQuery) {
        try {
            HttpRequest request = HttpRequest.newBuilder(baseUri().resolve(pathAndQuery)).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody()).build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(label + ": POST " + pathAndQuery + " answered " + response.statusCode() + " " + response.body());
            }
            return response.body().lines().filter(l -> !l.isBlank()).map(l -> Long.valueOf(l.strip())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** True while this run's JVM is alive. */
    public boolean alive() {
        return jvm().map(ProcessHandle::isAlive).orElse(false);
    }

    /** This run's JVM's pid: tells a restart from the same server having stayed up. */
    public long jvmPid() {
        return jvm().orElseThrow(() -> new IllegalStateException("No WildFly JVM")).pid();
    }

    /**
     * Crash: SIGKILL to WildFly's JVM (not to the script in front of it), then waits until the JVM and
     * the script are gone.
     *
     * @return the pid that was killed
     */
    public long kill() {
        ProcessHandle jvm = jvm().orElseThrow(() -> new IllegalStateException("No WildFly JVM to kill"));
        jvm.destroyForcibly();
        awaitGone(jvm, Duration.ofSeconds(30), "killed WildFly JVM " + jvm.pid());
        awaitGone(launcher.toHandle(), Duration.ofSeconds(30), "standalone.sh after its JVM was killed");
        saveRunLog();
        return jvm.pid();
    }

    /**
     * Clean stop: SIGTERM to {@code standalone.sh}, which forwards it to the JVM; waits for both to
     * exit (WildFly shuts down: running batch jobs are stopped, the engine marks its node stopped).
     */
    public void stop(Duration timeout) {
        ProcessHandle jvm = jvm().orElseThrow(() -> new IllegalStateException("No WildFly JVM to stop"));
        launcher.destroy();
        awaitGone(jvm, timeout, "WildFly JVM " + jvm.pid() + " after SIGTERM");
        awaitGone(launcher.toHandle(), Duration.ofSeconds(30), "standalone.sh after its JVM stopped");
        saveRunLog();
    }

    /**
     * A stop through the management API, as an operator types it: {@code jboss-cli.sh --connect} with the
     * operation (e.g. {@code :shutdown(suspend-timeout=30)}), then waits for the JVM and the script to exit.
     */
    public void shutdownWith(String operation, Duration timeout) {
        ProcessHandle jvm = jvm().orElseThrow(() -> new IllegalStateException("No WildFly JVM to shut down"));
        cli(operation, timeout);
        awaitGone(jvm, timeout, "WildFly JVM " + jvm.pid() + " after " + operation);
        awaitGone(launcher.toHandle(), Duration.ofSeconds(30), "standalone.sh after its JVM stopped");
        saveRunLog();
    }

    /**
     * {@code :reload} through jboss-cli, then waits until the reloaded server has deployed the EAR again
     * (the same JVM: its log goes on in the same file).
     */
    public void reload(Duration timeout) {
        long from = log.mark();
        cli(":reload", timeout);
        await(label + " run " + run + " reloading").atMost(timeout).pollInterval(Duration.ofMillis(500)).until(() ->
                log.linesBetween(from, log.mark()).stream().anyMatch(line -> line.contains("WFLYSRV0025")) && pingAnswers());
    }

    /** Runs one jboss-cli operation against this server ({@code :suspend}, {@code :resume}…) and returns its output. */
    public String cli(String operation, Duration timeout) {
        Path output = outputDir.resolve("cli-run-" + run + ".log");
        ProcessBuilder cli = new ProcessBuilder(jbossHome.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=remote+http://127.0.0.1:" + (9990 + portOffset), "--command=" + operation)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        try {
            long from = Files.exists(output) ? Files.size(output) : 0;
            Process process = cli.start();
            if (!process.waitFor(timeout.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("jboss-cli " + operation + " did not return within " + timeout);
            }
            String said = Files.readString(output).substring((int) from);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("jboss-cli " + operation + " failed (" + process.exitValue() + "): " + said);
            }
            return said;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public ServerLog log() {
        return log;
    }

    public int runs() {
        return run;
    }

    private Optional<ProcessHandle> jvm() {
        if (launcher == null) {
            return Optional.empty();
        }
        return launcher.descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst();
    }

    private static void awaitGone(ProcessHandle process, Duration timeout, String what) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(what + ": still alive after " + timeout, e);
        }
        if (process.isAlive()) {
            throw new IllegalStateException(what + ": still alive");
        }
    }

    /** This run's part of server.log, as {@code server-run-N.log} in the scenario's directory. */
    private void saveRunLog() {
        savedRun = run;
        log.copy(runLogStart, log.mark(), outputDir.resolve("server-run-" + run + ".log"));
    }

    private static void deleteIfExists(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops a server still running at the end of a scenario, cleanly if it lets itself be stopped. */
    @Override
    public void close() {
        try {
            if (launcher != null && launcher.isAlive() && alive()) {
                try {
                    stop(Duration.ofSeconds(60));
                } catch (RuntimeException stuck) {
                    kill();
                }
            }
        } finally {
            killQuietly();
            if (savedRun < run) {
                saveRunLog();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // already running the hooks
            }
        }
    }

    /** Last resort (also the shutdown hook): nothing of ours may outlive the test JVM. */
    private void killQuietly() {
        if (launcher == null) {
            return;
        }
        launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        launcher.destroyForcibly();
    }
}
