package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.devserver.Trees;

import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.check.Execution;
import io.dispatchpolicy.faults.check.Invariants;
import io.dispatchpolicy.faults.check.Observations;
import io.dispatchpolicy.faults.check.Results;
import io.dispatchpolicy.faults.check.Verdict;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Logger;

import static org.awaitility.Awaitility.await;

/**
 * One fault scenario from start to verdict: a fresh database and server under
 * {@code target/faults/<scenario>}, the storm, waiting for the moment to strike and for the drain,
 * then the invariants and the recorded result. The scenario itself only decides what fault to cause.
 */
public final class FaultRun implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FaultRun.class.getName());
    private static final String NODE = "fault-node";

    private final String scenario;
    private final FaultSettings settings;
    private final Path dir;
    private final FaultDatabase database;
    private final FaultServer server;
    private final Observations observations;
    private final Map<String, Object> result = new LinkedHashMap<>();
    private final List<java.util.function.Supplier<java.util.Optional<String>>> extraChecks = new ArrayList<>();
    private Storm storm;
    private Instant faultStarted;
    private Instant faultEnded;

    private FaultRun(String scenario, FaultSettings settings, Path dir, FaultDatabase database, FaultServer server) {
        this.scenario = scenario;
        this.settings = settings;
        this.dir = dir;
        this.database = database;
        this.server = server;
        this.observations = new Observations(database::connect, FaultPolicies.JOB, FaultPolicies.POLICY);
    }

    /** Starts PostgreSQL, then WildFly with the fault EAR, and waits until it is deployed. */
    public static FaultRun start(String scenario, String description) {
        FaultSettings settings = FaultSettings.fromSystemProperties();
        Path dir = settings.outputDir().resolve(scenario);
        Trees.delete(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FaultDatabase database = FaultDatabase.start(dir.resolve("pgdata"));
        FaultServer server;
        try {
            Path ear = FaultDeployment.export(settings.ear(), dir);
            List<String> properties = new ArrayList<>(List.of(database.serverProperties()));
            properties.addAll(List.of("-Ddispatch.node-name=" + NODE, "-Djboss.tx.node.id=" + NODE));
            server = FaultServer.prepare(settings, dir, ear, properties);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        FaultRun run = new FaultRun(scenario, settings, dir, database, server);
        run.result.put("scenario", scenario);
        run.result.put("description", description);
        run.result.put("ranAt", Instant.now().toString());
        run.result.put("jobs", settings.jobs());
        run.result.put("tenants", settings.tenants());
        run.result.put("sleepMs", settings.sleepMs());
        run.result.put("concurrencyCap", FaultPolicies.CONCURRENCY);
        try {
            run.bootServer();
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
        return run;
    }

    /** Starts WildFly (again, on the same base directory) and waits until the fault EAR is deployed. */
    public void bootServer() {
        Instant begin = Instant.now();
        server.start();
        server.awaitDeployed(settings.boot());
        LOG.info(() -> scenario + ": WildFly run " + server.runs() + " deployed in " + seconds(begin, Instant.now()) + " s");
    }

    /** Submits the whole storm through the fault WAR. */
    public Storm submitStorm() {
        Instant begin = Instant.now();
        storm = Storm.submit(server.baseUri(), settings.jobs(), settings.tenants(), settings.sleepMs());
        result.put("stagingSeconds", seconds(begin, Instant.now()));
        return storm;
    }

    /** Waits until the share {@code fault.at} of the storm has been admitted (JBeret executions exist). */
    public void awaitFaultMoment() {
        long target = settings.faultAfterAdmitted();
        await(scenario + ": " + target + " jobs admitted").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200))
                .until(() -> observations.executionCount() >= target);
        result.put("admittedWhenFaultStruck", observations.executionCount());
        result.put("completedWhenFaultStruck", observations.completedCount());
    }

    /** The fault begins now. */
    public void faultStarted(String fault) {
        faultStarted = Instant.now();
        result.put("fault", fault);
        result.put("faultStartedAt", faultStarted.toString());
    }

    /** The fault is over now (the server is back and deployed, or the database is back). */
    public void faultEnded() {
        faultEnded = Instant.now();
        result.put("faultEndedAt", faultEnded.toString());
        result.put("faultSeconds", seconds(faultStarted, faultEnded));
    }

    /** A scenario-specific fact for the report. */
    public void note(String key, Object value) {
        result.put(key, value);
    }

    /** A scenario's own check, run with the invariants: a violation when it returns one. */
    public void checkAlso(java.util.function.Supplier<java.util.Optional<String>> check) {
        extraChecks.add(check);
    }

    /**
     * Waits, at most {@code within} after the fault ended, until nothing is staged, in flight or
     * running; then checks the invariants and records the result (drained or not).
     */
    public Verdict drainAndCheck(Duration within) {
        Objects.requireNonNull(faultEnded, "faultEnded() first");
        boolean drained;
        try {
            Duration left = Duration.between(Instant.now(), faultEnded.plus(within));
            await(scenario + ": storm drained").atMost(left.isNegative() || left.isZero() ? Duration.ofSeconds(1) : left)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(observations::drained);
            drained = true;
        } catch (ConditionTimeoutException notDrained) {
            drained = false;
        }
        Instant checkedAt = Instant.now();
        List<Execution> executions = observations.executions();
        Verdict verdict = Invariants.check(storm.submissionIds(), executions, observations.stagedIds(), observations.stagedPartitions(),
                observations.inflightRows(), FaultPolicies.CONCURRENCY, checkedAt);
        List<String> violations = new ArrayList<>();
        if (!drained) {
            violations.add("not drained within " + within.toSeconds() + " s of the fault's end (" + faultEnded + "): "
                    + observations.stagedCount() + " staged, " + observations.inflightCount() + " in flight, "
                    + observations.unfinishedCount() + " executions STARTING/STARTED/STOPPING; nodes: " + observations.nodes());
        }
        violations.addAll(verdict.violations());
        extraChecks.forEach(check -> check.get().ifPresent(violations::add));
        Instant lastEnd = executions.stream().map(Execution::ended).filter(Objects::nonNull).max(Instant::compareTo).orElse(null);
        result.put("drained", drained);
        result.put("drainDeadlineSeconds", within.toSeconds());
        result.put("secondsToDrainAfterFault", drained && lastEnd != null ? seconds(faultEnded, lastEnd) : null);
        result.putAll(verdict.figures());
        result.put("serverRuns", server.runs());
        result.put("postgresStopMode", database.lastStopMode());
        result.put("passed", violations.isEmpty());
        result.put("violations", violations);
        String summary = Results.record(settings.outputDir(), scenario, result);
        System.out.println(summary);
        return new Verdict(verdict.figures(), violations);
    }

    public FaultServer server() {
        return server;
    }

    public FaultDatabase database() {
        return database;
    }

    public FaultSettings settings() {
        return settings;
    }

    public Observations observations() {
        return observations;
    }

    public Path dir() {
        return dir;
    }

    static double seconds(Instant from, Instant to) {
        return Math.round(Duration.between(from, to).toMillis() / 100.0) / 10.0;
    }

    /** WildFly first (it must not outlive its database), then PostgreSQL. */
    @Override
    public void close() {
        try {
            server.close();
        } finally {
            database.close();
        }
    }
}
