package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.devserver.Trees;

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
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

import static org.awaitility.Awaitility.await;

/**
 * One fault scenario from start to verdict: a fresh database and one or more servers under
 * {@code target/faults/<scenario>}, the storm, waiting for the moment to strike and for the drain,
 * then the invariants and the recorded result. The scenario itself only decides what fault to cause.
 *
 * <p>With several servers ({@link ServerSpec}) all share the database and the EAR, and the node name
 * unless a spec gives one of its own. Servers with names of their own boot together, as a cluster's nodes do
 * (the schema's migration and JBeret's tables are guarded against that: Flyway's lock, JBeret's retry, the
 * engine's advisory lock), and each boot (its {@code dispatch.nodes} row) is known by its name; servers that
 * share a name boot one after the other, each boot the one node that appeared while it booted.
 *
 * <p>What is checked is one or more {@link Workload}s (a job and its policy; by default the storm's):
 * each gets the invariants over its own submissions and executions. The first is the scenario's main
 * one: its figures are the result's, the fault moment counts its admissions, {@link #observations()}
 * reads it; the others' figures go under {@code "workload <job>"}.
 */
public final class FaultRun implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FaultRun.class.getName());

    /**
     * Heartbeats and recovery passes every 2 s instead of 5 and 10: a killed node is known gone and its
     * work taken over in about 6 s instead of 20, which is what the kill scenarios wait for. The rule
     * judged is the same (a free liveness lock and a heartbeat two intervals old); a scenario's own
     * properties come after these and win.
     */
    private static final List<String> LIVENESS = List.of("-Ddispatch.heartbeat-interval=2", "-Ddispatch.recovery-interval=2");

    private final String scenario;
    private final FaultSettings settings;
    private final Path dir;
    private final FaultDatabase database;
    /** By name, in boot order. */
    private final Map<String, FaultServer> servers;
    private final Map<String, UUID> currentBoots = new LinkedHashMap<>();
    private final Set<UUID> attributedBoots = new HashSet<>();
    private final Observations observations;
    private final List<Workload> workloads;
    /** By job. */
    private final Map<String, Observations> observationsByJob = new LinkedHashMap<>();
    /** By job: every submission id of that job's storms, in the order they were submitted. */
    private final Map<String, List<Long>> submittedByJob = new LinkedHashMap<>();
    private final Map<String, Object> result = new LinkedHashMap<>();
    private final List<Supplier<Optional<String>>> extraChecks = new ArrayList<>();
    private final java.util.Set<Long> stoppedByOperator = new java.util.HashSet<>();
    private Instant faultStarted;
    private Instant faultEnded;

    private FaultRun(String scenario, FaultSettings settings, Path dir, FaultDatabase database, Map<String, FaultServer> servers,
                     List<Workload> workloads) {
        this.scenario = scenario;
        this.settings = settings;
        this.dir = dir;
        this.database = database;
        this.servers = servers;
        this.workloads = List.copyOf(workloads);
        for (Workload w : this.workloads) {
            observationsByJob.put(w.job(), new Observations(database::connect, w.job(), w.policy()));
            submittedByJob.put(w.job(), new ArrayList<>());
        }
        this.observations = observationsByJob.get(this.workloads.get(0).job());
    }

    /** Starts PostgreSQL, then WildFly with the fault EAR, and waits until it is deployed. */
    public static FaultRun start(String scenario, String description) {
        return start(scenario, description, FaultSettings.fromSystemProperties(), List.of(ServerSpec.ONLY));
    }

    /**
     * Starts PostgreSQL, then the servers, each with the fault EAR, and waits until each is deployed: together
     * when they have names of their own, else one after the other (see the class's comment).
     */
    public static FaultRun start(String scenario, String description, FaultSettings settings, List<ServerSpec> specs) {
        return start(scenario, description, settings, specs, List.of(Workload.STORM));
    }

    /**
     * As {@link #start(String, String, FaultSettings, List)}, checking the given workloads (the first is
     * the main one) instead of the storm's.
     */
    public static FaultRun start(String scenario, String description, FaultSettings settings, List<ServerSpec> specs,
                                 List<Workload> workloads) {
        if (workloads.isEmpty() || workloads.stream().map(Workload::job).distinct().count() != workloads.size()) {
            throw new IllegalArgumentException("Workloads need distinct jobs: " + workloads);
        }
        if (specs.isEmpty() || specs.stream().map(ServerSpec::name).distinct().count() != specs.size()
                || specs.stream().map(ServerSpec::portsAbove).distinct().count() != specs.size()) {
            throw new IllegalArgumentException("Servers need distinct names and ports: " + specs);
        }
        Path dir = settings.outputDir().resolve(scenario);
        Trees.delete(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FaultDatabase database = FaultDatabase.start(dir.resolve("pgdata"));
        Map<String, FaultServer> servers = new LinkedHashMap<>();
        try {
            Path ear = FaultDeployment.export(settings.ear(), dir);
            for (ServerSpec spec : specs) {
                List<String> properties = new ArrayList<>(List.of(database.serverProperties()));
                properties.addAll(LIVENESS);
                properties.addAll(spec.systemProperties());
                servers.put(spec.name(), FaultServer.prepare(spec.label(), settings, spec.dir(dir), ear, properties,
                        spec.portOffset(settings)));
            }
        } catch (RuntimeException e) {
            servers.values().forEach(FaultServer::close);
            database.close();
            throw e;
        }
        FaultRun run = new FaultRun(scenario, settings, dir, database, servers, workloads);
        run.result.put("scenario", scenario);
        run.result.put("description", description);
        run.result.put("ranAt", Instant.now().toString());
        run.result.put("jobs", settings.jobs());
        run.result.put("tenants", settings.tenants());
        run.result.put("sleepMs", settings.sleepMs());
        Workload main = run.workloads.get(0);
        run.result.put("concurrencyCap", main.concurrency());
        if (!main.equals(Workload.STORM) || run.workloads.size() > 1) {
            run.result.put("workloads", run.workloads.stream().map(w -> w.job() + " (policy " + w.policy() + ", concurrency "
                    + w.concurrency() + (w.capacity() == null ? "" : ", capacity " + w.capacity()) + ")").toList());
        }
        if (specs.size() > 1) {
            Map<String, Object> nodeNames = new LinkedHashMap<>();
            specs.forEach(spec -> nodeNames.put(spec.name(), spec.dispatchNodeName()
                    + (spec.properties().isEmpty() ? "" : " " + String.join(" ", spec.properties()))));
            run.result.put("servers", nodeNames);
        }
        try {
            if (specs.size() > 1 && specs.stream().map(ServerSpec::dispatchNodeName).distinct().count() == specs.size()) {
                Map<String, String> nodeNames = new LinkedHashMap<>();
                specs.forEach(spec -> nodeNames.put(spec.name(), spec.dispatchNodeName()));
                run.bootTogether(nodeNames);
            } else {
                servers.keySet().forEach(run::bootServer);
            }
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
        return run;
    }

    /** Starts the only WildFly (again, on the same base directory) and waits until the fault EAR is deployed. */
    public void bootServer() {
        bootServer(only());
    }

    /**
     * Starts the named WildFly (again, on the same base directory), waits until the fault EAR is
     * deployed, and attributes to it the boot that registered meanwhile (see {@link #bootId}).
     */
    public void bootServer(String name) {
        FaultServer server = server(name);
        Instant begin = Instant.now();
        server.start();
        server.awaitDeployed(settings.boot());
        attributeBoot(name);
        LOG.info(() -> scenario + ": " + (name.isEmpty() ? "WildFly" : "WildFly " + name) + " run " + server.runs()
                + " deployed in " + seconds(begin, Instant.now()) + " s as node " + currentBoots.get(name));
    }

    /**
     * Starts every server at once and waits until each has deployed; each boot is the new node of its server's
     * {@code dispatch.node-name} ({@code nodeNames}: by server name).
     */
    private void bootTogether(Map<String, String> nodeNames) {
        Instant begin = Instant.now();
        servers.values().forEach(FaultServer::start);
        for (Map.Entry<String, FaultServer> e : servers.entrySet()) {
            e.getValue().awaitDeployed(settings.boot());
        }
        Map<UUID, String> names = observations.nodeNames();
        for (String name : servers.keySet()) {
            List<UUID> fresh = names.entrySet().stream()
                    .filter(n -> n.getValue().equals(nodeNames.get(name)) && !attributedBoots.contains(n.getKey())).map(Map.Entry::getKey).toList();
            attributedBoots.addAll(fresh);
            if (fresh.size() == 1) {
                currentBoots.put(name, fresh.get(0));
            } else {
                LOG.warning(() -> scenario + ": cannot tell server '" + name + "''s boot among the new nodes " + fresh);
            }
        }
        LOG.info(() -> scenario + ": WildFly " + servers.keySet() + " booted together, deployed in " + seconds(begin, Instant.now())
                + " s as nodes " + currentBoots);
    }

    /**
     * The engine registers its boot while the EAR deploys, and servers boot one at a time: the one node
     * not yet attributed to a boot is this server's. When that is not exactly one (never seen), the
     * server's boot stays unknown and {@link #bootId} says so.
     */
    private void attributeBoot(String name) {
        List<UUID> fresh = observations.nodeIds().stream().filter(id -> !attributedBoots.contains(id)).toList();
        attributedBoots.addAll(fresh);
        if (fresh.size() == 1) {
            currentBoots.put(name, fresh.get(0));
        } else {
            currentBoots.remove(name);
            LOG.warning(() -> scenario + ": cannot tell server '" + name + "''s boot among the new nodes " + fresh);
        }
    }

    /** The {@code dispatch.nodes} id of the named server's latest boot. */
    public UUID bootId(String name) {
        UUID id = currentBoots.get(name);
        if (id == null) {
            throw new IllegalStateException("Server '" + name + "''s boot is unknown; nodes: " + observations.nodes());
        }
        return id;
    }

    /** Submits the whole storm through the only server's fault WAR. */
    public Storm submitStorm() {
        return submitStorm(only());
    }

    /** Submits a storm of {@code count} jobs of the main workload, each sleeping {@code sleepMs}, through the only server. */
    public Storm submitStorm(int count, String sleepMs) {
        return submitStormThrough(workloads.get(0), count, settings.tenants(), sleepMs, only());
    }

    /** Waits until at least {@code count} executions of the storm are running (STARTED in JBeret's record). */
    public void awaitRunning(int count) {
        long[] most = {0};
        try {
            await(scenario + ": " + count + " running").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        long running = observations.executions().stream().filter(e -> "STARTED".equals(e.status())).count();
                        most[0] = Math.max(most[0], running);
                        return running >= count;
                    });
        } catch (ConditionTimeoutException e) {
            Map<String, Long> statuses = new java.util.TreeMap<>(observations.executions().stream()
                    .collect(java.util.stream.Collectors.groupingBy(Execution::status, java.util.stream.Collectors.counting())));
            throw new IllegalStateException(count + " executions never ran at once (at most " + most[0] + "); by status: " + statuses
                    + ", staged " + observations.stagedCount(), e);
        }
        result.put("admittedWhenFaultStruck", observations.executionCount());
    }

    /** Submits the whole storm (of the main workload's job) through the named server's fault WAR. */
    public Storm submitStorm(String through) {
        Instant begin = Instant.now();
        Storm storm = Storm.submit(server(through).baseUri(), workloads.get(0).job(), settings.jobs(), settings.tenants(),
                settings.sleepMs(), 0);
        submittedByJob.get(workloads.get(0).job()).addAll(storm.submissionIds());
        result.put("stagingSeconds", seconds(begin, Instant.now()));
        return storm;
    }

    /**
     * Submits a storm of {@code count} jobs of the workload's job over {@code tenants} tenants, split evenly between the named servers' fault WARs, all at once (one thread per server); storm
     * indexes (and so tenants and sleeps) run on from one server's part to the next.
     */
    public Storm submitStormThrough(Workload workload, int count, int tenants, String sleepMs, String... through) {
        if (!submittedByJob.containsKey(workload.job())) {
            throw new IllegalArgumentException(workload + " is not one of this run's workloads " + workloads);
        }
        Instant begin = Instant.now();
        List<java.util.concurrent.CompletableFuture<Storm>> parts = new ArrayList<>();
        int first = 0;
        for (int i = 0; i < through.length; i++) {
            int size = count / through.length + (i < count % through.length ? 1 : 0);
            int from = first;
            java.net.URI war = server(through[i]).baseUri();
            parts.add(java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> Storm.submit(war, workload.job(), size, tenants, sleepMs, from)));
            first += size;
        }
        Storm storm = parts.stream().map(java.util.concurrent.CompletableFuture::join).reduce(Storm::and).orElseThrow();
        submittedByJob.get(workload.job()).addAll(storm.submissionIds());
        result.merge("stagingSeconds", seconds(begin, Instant.now()), (a, b) -> Math.round(((Double) a + (Double) b) * 10) / 10.0);
        return storm;
    }

    /** Waits until the share {@code fault.at} of the storm has been admitted (JBeret executions exist). */
    public void awaitFaultMoment() {
        awaitFaultMoment("nothing else", () -> true);
    }

    /**
     * Waits until the share {@code fault.at} of the storm has been admitted (JBeret executions exist)
     * and {@code also} holds as well (evaluated only once enough are admitted).
     */
    public void awaitFaultMoment(String alsoWhat, BooleanSupplier also) {
        awaitFaultMoment(settings.faultAfterAdmitted(), alsoWhat, also);
    }

    /**
     * Waits until {@code target} executions of the run's first workload exist and {@code also} holds. For a scenario
     * whose storms are not the settings' size: {@code fault.at} of the settings' job count may be the very end of a
     * smaller storm, when nothing runs any more and a condition on running jobs can never hold.
     */
    public void awaitFaultMoment(long target, String alsoWhat, BooleanSupplier also) {
        await(scenario + ": " + target + " jobs admitted and " + alsoWhat).atMost(Duration.ofMinutes(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> observations.executionCount() >= target && also.getAsBoolean());
        result.put("admittedWhenFaultStruck", observations.executionCount());
        result.put("completedWhenFaultStruck", observations.completedCount());
    }

    /** The fault begins now. */
    public void faultStarted(String fault) {
        faultStarted = Instant.now();
        result.put("fault", fault);
        result.put("faultStartedAt", faultStarted.toString());
    }

    /** A scenario without a fault: the drain is timed from now. */
    public void noFault(String what) {
        faultStarted(what);
        faultEnded();
    }

    /**
     * Seconds from {@code since} until no in-flight row belongs to the boot {@code node} any more (a
     * live node took the never-started ones and released the started ones: ADR 0007), polled every
     * 250 ms; null when some are still there after {@code timedFor}.
     */
    public Double secondsUntilNoInflightOf(UUID node, Instant since, Duration timedFor) {
        try {
            await(scenario + ": no in-flight row of the boot " + node).atMost(timedFor).pollInterval(Duration.ofMillis(250))
                    .until(() -> observations.inflightCountOf(node) == 0);
        } catch (ConditionTimeoutException stillThere) {
            return null;
        }
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
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
    /** The scenario stopped this submission as an operator would: it must end STOPPED, once, and not run again. */
    public void stoppedByOperator(long submissionId) {
        stoppedByOperator.add(submissionId);
    }

    public void checkAlso(Supplier<Optional<String>> check) {
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
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> observationsByJob.values().stream().allMatch(Observations::drained));
            drained = true;
        } catch (ConditionTimeoutException notDrained) {
            drained = false;
        }
        Instant checkedAt = Instant.now();
        List<Execution> executions = new ArrayList<>();
        Map<String, Object> figures = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        if (!drained) {
            violations.add("not drained within " + within.toSeconds() + " s of the fault's end (" + faultEnded + "): "
                    + observationsByJob.values().stream().mapToLong(Observations::stagedCount).sum() + " staged, "
                    + observations.inflightCount() + " in flight, "
                    + observationsByJob.values().stream().mapToLong(Observations::unfinishedCount).sum()
                    + " executions STARTING/STARTED/STOPPING; nodes: " + observations.nodes());
        }
        for (Workload w : workloads) {
            Observations o = observationsByJob.get(w.job());
            List<Execution> ofJob = o.executions();
            executions.addAll(ofJob);
            boolean main = w.equals(workloads.get(0));
            // In-flight rows are every job's: checked once, with the main workload.
            Verdict v = Invariants.check(submittedByJob.get(w.job()), stoppedByOperator, ofJob, o.stagedIds(), o.stagedPartitions(),
                    main ? o.inflightRows() : List.of(), w.concurrency(), w.capacity(), checkedAt);
            if (main) {
                figures.putAll(v.figures());
                violations.addAll(v.violations());
            } else {
                figures.put("workload " + w.job(), v.figures());
                v.violations().forEach(violation -> violations.add(w.job() + ": " + violation));
            }
        }
        Verdict verdict = new Verdict(figures, violations);
        extraChecks.forEach(check -> check.get().ifPresent(violations::add));
        Instant lastEnd = executions.stream().map(Execution::ended).filter(Objects::nonNull).max(Instant::compareTo).orElse(null);
        result.put("drained", drained);
        result.put("drainDeadlineSeconds", within.toSeconds());
        result.put("secondsToDrainAfterFault", drained && lastEnd != null ? seconds(faultEnded, lastEnd) : null);
        result.putAll(verdict.figures());
        result.put("serverRuns", servers.size() == 1 ? server(only()).runs() : runsByServer());
        result.put("postgresStopMode", database.lastStopMode());
        result.put("passed", violations.isEmpty());
        result.put("violations", violations);
        String summary = Results.record(settings.outputDir(), scenario, result);
        System.out.println(summary);
        return new Verdict(figures, violations);
    }

    /** The only server of a single-server scenario. */
    public FaultServer server() {
        return server(only());
    }

    public FaultServer server(String name) {
        FaultServer server = servers.get(name);
        if (server == null) {
            throw new IllegalArgumentException("No server '" + name + "' in " + servers.keySet());
        }
        return server;
    }

    private String only() {
        if (servers.size() != 1) {
            throw new IllegalStateException(scenario + " runs " + servers.size() + " servers: name one of " + servers.keySet());
        }
        return servers.keySet().iterator().next();
    }

    private Map<String, Integer> runsByServer() {
        Map<String, Integer> runs = new LinkedHashMap<>();
        servers.forEach((name, server) -> runs.put(name, server.runs()));
        return runs;
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

    /** What the database holds of one of the run's workloads' jobs. */
    public Observations observations(Workload workload) {
        return java.util.Objects.requireNonNull(observationsByJob.get(workload.job()), () -> workload + " is not one of this run's");
    }

    public Path dir() {
        return dir;
    }

    static double seconds(Instant from, Instant to) {
        return Math.round(Duration.between(from, to).toMillis() / 100.0) / 10.0;
    }

    /**
     * The servers first, last booted first (none may outlive its database), then PostgreSQL; each is
     * closed even when closing another failed, and the first failure is thrown.
     */
    @Override
    public void close() {
        RuntimeException first = null;
        List<FaultServer> lastFirst = new ArrayList<>(servers.values());
        Collections.reverse(lastFirst);
        for (FaultServer server : lastFirst) {
            try {
                server.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        try {
            database.close();
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw first;
        }
    }
}
