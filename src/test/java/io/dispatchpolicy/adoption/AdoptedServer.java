package io.dispatchpolicy.adoption;

import io.dispatchpolicy.testing.TestServerJvm;

import io.dispatchpolicy.devserver.Trees;
import io.dispatchpolicy.faults.harness.ServerLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A copy of the pristine provisioned WildFly, configured and run the way an adopter runs an existing
 * server: {@code jboss-cli.sh --file=configure.cli --properties=…} offline, {@code add-user.sh} for a
 * console account, {@code bin/standalone.sh}, archives dropped into {@code standalone/deployments}.
 * Ports are offset by {@value #OFFSET} so it never meets the Arquillian or fault-suite servers.
 */
final class AdoptedServer implements AutoCloseable {

    static final int OFFSET = 600;

    private final Path home;
    private final ServerLog log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process launcher;
    /** Where this start's part of server.log begins (a copied server may bring an old log along). */
    private long logStart;

    private AdoptedServer(Path home) {
        this.home = home;
        this.log = new ServerLog(home.resolve("standalone/log/server.log"));
    }

    /** A fresh copy of {@code pristine} at {@code home}. */
    static AdoptedServer copyOf(Path pristine, Path home) {
        Trees.delete(home);
        Trees.copy(pristine, home);
        home.resolve("bin").toFile().listFiles(f -> f.getName().endsWith(".sh") && f.setExecutable(true));
        return new AdoptedServer(home);
    }

    /** The guide's command, run from the unzipped configuration directory; fails with its output. */
    void configure(Path configDir, Path properties) {
        run(configDir, home.resolve("bin/jboss-cli.sh").toString(), "--file=configure.cli", "--properties=" + properties);
    }

    /** {@code add-user.sh -a}: an application user with the console's roles, as the guide says. */
    void addConsoleUser(String user, String password, String roles) {
        run(home, home.resolve("bin/add-user.sh").toString(), "-a", "-s", "-u", user, "-p", password, "-g", roles);
    }

    void start() {
        logStart = log.mark();
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(),
                "-Djboss.socket.binding.port-offset=" + OFFSET)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("console.log").toFile());
        builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        builder.environment().put("JBOSS_JAVA_SIZING", TestServerJvm.SIZING);
        try {
            launcher = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await("WildFly at " + home + " started").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    if (!launcher.isAlive()) {
                        throw new IllegalStateException("WildFly exited with " + launcher.exitValue() + "; see "
                                + home.resolve("console.log"));
                    }
                    return logLines().stream().anyMatch(line -> line.contains("WFLYSRV0025") || line.contains("WFLYSRV0026"));
                });
    }

    /** Drops {@code archive} into the deployment scanner's directory and waits until it is deployed. */
    void deploy(Path archive) {
        Path deployments = home.resolve("standalone/deployments");
        String name = archive.getFileName().toString();
        try {
            Files.copy(archive, deployments.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await("deploying " + name).atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Path failed = deployments.resolve(name + ".failed");
            if (Files.exists(failed)) {
                throw new IllegalStateException("Deployment of " + name + " failed: " + Files.readString(failed));
            }
            return Files.exists(deployments.resolve(name + ".deployed"));
        });
    }

    /** Removes the archive; the scanner undeploys it. */
    void undeploy(String name) {
        Path deployments = home.resolve("standalone/deployments");
        try {
            Files.delete(deployments.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await("undeploying " + name).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> Files.exists(deployments.resolve(name + ".undeployed")));
    }

    /** What {@code jboss-cli.sh} answered: its exit code and output. */
    record CliResult(int exitCode, String output) {
    }

    /**
     * One {@code jboss-cli.sh} command against this server's management port, as an operator types it
     * (local authentication); a command that does not end within two minutes fails the test.
     */
    CliResult cli(String command) {
        try {
            Process process = new ProcessBuilder(home.resolve("bin/jboss-cli.sh").toString(), "-c",
                    "--controller=remote+http://localhost:" + (9990 + OFFSET), "--command=" + command)
                    .directory(home.toFile()).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("jboss-cli did not answer within 2 minutes: " + command);
            }
            return new CliResult(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Where server.log ends now: {@link #logLinesSince} reads from here. */
    long logMark() {
        return log.mark();
    }

    /** server.log from {@code mark} to its end. */
    List<String> logLinesSince(long mark) {
        return log.linesBetween(mark, log.mark());
    }

    /** {@code :shutdown} through jboss-cli; waits until WildFly and its script have exited. */
    void shutdown() {
        List<ProcessHandle> all = processes();
        CliResult result = cli(":shutdown");
        if (result.exitCode() != 0) {
            throw new IllegalStateException(":shutdown failed: " + result.output());
        }
        awaitExit(all, ":shutdown");
    }

    /** HTTP to this server: status and body. */
    HttpResponse<String> send(String method, String path, String basicAuth) {
        return send(method, path, basicAuth, Duration.ofSeconds(30));
    }

    /** As {@link #send(String, String, String)}, failing when the answer takes longer than {@code within}. */
    HttpResponse<String> send(String method, String path, String basicAuth, Duration within) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + (8080 + OFFSET) + path))
                .timeout(within)
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (basicAuth != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(basicAuth.getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** server.log since the last start. */
    List<String> logLines() {
        return log.linesBetween(logStart, log.mark());
    }

    /** Clean stop: SIGTERM to the script, which forwards it to WildFly; waits for both. */
    void stop() {
        if (launcher == null || !launcher.isAlive()) {
            return;
        }
        List<ProcessHandle> all = processes();
        launcher.destroy();
        awaitExit(all, "SIGTERM");
    }

    /** The script and WildFly's JVM below it. */
    private List<ProcessHandle> processes() {
        List<ProcessHandle> all = new java.util.ArrayList<>(launcher.descendants().toList());
        all.add(launcher.toHandle());
        return all;
    }

    private static void awaitExit(List<ProcessHandle> processes, String after) {
        for (ProcessHandle p : processes) {
            try {
                p.onExit().get(2, TimeUnit.MINUTES);
            } catch (Exception e) {
                throw new IllegalStateException("WildFly did not stop within 2 minutes of " + after, e);
            }
        }
    }

    @Override
    public void close() {
        if (launcher != null) {
            try {
                stop();
            } finally {
                launcher.descendants().forEach(ProcessHandle::destroyForcibly);
                launcher.destroyForcibly();
            }
        }
    }

    private static void run(Path dir, String... command) {
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
