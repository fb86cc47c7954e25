package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@link DevServer#main} in a JVM of its own, as {@code ./mvnw -Prun verify} runs it (the test
 * classpath, the system properties the {@code run} profile passes), with its console in a file.
 * Stopped as Ctrl-C or a service manager stops it: SIGTERM, to which its shutdown hook stops WildFly,
 * then PostgreSQL.
 */
final class RunCommandProcess implements AutoCloseable {

    private final Process process;
    private final Path console;
    private final Thread cleanup;

    private RunCommandProcess(Process process, Path console) {
        this.process = process;
        this.console = console;
        this.cleanup = new Thread(this::close, "run-command-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /**
     * @param env       the run command's own variables; every other {@code DISPATCH_*} variable of
     *                  this JVM is left out, so a developer's shell cannot change what is tested
     * @param runDirProperty the {@code dispatch.run.dir} system property (the build's default run directory)
     */
    static RunCommandProcess start(Map<String, String> env, Path runDirProperty, Path console) {
        try {
            Files.createDirectories(console.getParent());
            // One argument of this length could pass the kernel's limit for one argument: an @argfile cannot.
            Path argfile = console.resolveSibling(console.getFileName() + ".args");
            Files.writeString(argfile, "-cp \"" + System.getProperty("java.class.path") + "\"\n");
            ProcessBuilder builder = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "@" + argfile,
                    "-Xmx256m",
                    "-Djboss.home=" + System.getProperty("jboss.home"),
                    "-Ddispatch.ear=" + System.getProperty("dispatch.ear"),
                    "-Ddispatch.run.dir=" + runDirProperty,
                    DevServer.class.getName()))
                    .redirectErrorStream(true)
                    .redirectOutput(console.toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("DISPATCH_"));
            builder.environment().putAll(env);
            return new RunCommandProcess(builder.start(), console);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything the run command (and WildFly, whose console it inherits) printed so far. */
    String console() {
        try {
            return Files.exists(console) ? Files.readString(console) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The URL of the run command's "is up" line; fails at once when it exited first. */
    String awaitUp(Duration timeout) {
        await("the run command's " + DevServer.UP.strip() + " line in " + console).atMost(timeout)
                .pollInterval(Duration.ofSeconds(1)).until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("The run command exited with " + process.exitValue()
                                + " before it was up:\n" + tail());
                    }
                    return upLine().isPresent();
                });
        String line = upLine().orElseThrow();
        return line.substring(DevServer.UP.length()).split("\\s+")[0];
    }

    private Optional<String> upLine() {
        return console().lines().filter(l -> l.startsWith(DevServer.UP)).findFirst();
    }

    /** Waits for the run command to exit by itself (a refused setting); its exit status. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("The run command still runs after " + timeout + ":\n" + tail());
        }
        return process.exitValue();
    }

    /** WildFly's JVM, started by {@code standalone.sh} under the run command. */
    Optional<ProcessHandle> wildFlyJvm() {
        return process.descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst();
    }

    /** SIGTERM, as Ctrl-C; waits until the run command and everything it started under it are gone. */
    void stop(Duration timeout) throws InterruptedException {
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        awaitExit(timeout);
        await("the run command's child processes gone after it exited").atMost(Duration.ofSeconds(30))
                .until(() -> started.stream().noneMatch(ProcessHandle::isAlive));
    }

    private String tail() {
        List<String> lines = console().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** Nothing of the run command may outlive the test: a clean stop first, then force. */
    @Override
    public void close() {
        if (process.isAlive()) {
            List<ProcessHandle> started = process.descendants().toList();
            process.destroy();
            try {
                if (!process.waitFor(2, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
            started.forEach(ProcessHandle::destroyForcibly);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // already running the hooks, this one among them
        }
    }
}
