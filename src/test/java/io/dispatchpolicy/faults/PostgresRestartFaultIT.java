package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.ServerLog;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (b) PostgreSQL crashes mid-storm (immediate stop) and is back {@code fault.pg.outage} seconds later,
 * while WildFly keeps running: the storm must drain completely within {@code fault.pg.drain} seconds of
 * the database's return, without restarting WildFly.
 */
class PostgresRestartFaultIT {

    /** WildFly's default pattern: date, time, level, [category]. */
    private static final Pattern LOG_LINE = Pattern.compile("^\\S+ \\S+ (\\w+)\\s+\\[([^\\]]+)\\]");

    @Test
    void stormDrainsWithoutRestartingWildFlyAfterPostgresComesBack() {
        try (FaultRun run = FaultRun.start("b-postgres-restart",
                "PostgreSQL immediate stop mid-storm, started again on the same data directory and port; WildFly keeps running")) {
            run.submitStorm();
            run.awaitFaultMoment();
            long wildfly = run.server().jvmPid();
            ServerLog log = run.server().log();
            Duration outage = run.settings().pgOutage();

            long outageFrom = log.mark();
            run.faultStarted("PostgreSQL immediate stop for " + outage.toSeconds() + " s");
            Instant down = Instant.now();
            run.note("postgresStop", run.database().stopImmediately());
            // The console answers during the outage with what the node knows without its database.
            AtomicReference<Map.Entry<Integer, String>> summary = new AtomicReference<>();
            await("the summary endpoint reporting the outage").atMost(outage).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        summary.set(run.server().summary());
                        return summary.get().getKey() == 503 && summary.get().getValue().contains("databaseUnreachableSince");
                    });
            run.note("summaryDuringOutage", summary.get().getKey() + " " + summary.get().getValue());
            run.checkAlso(() -> summary.get().getValue().contains("\"databaseUnreachableSince\"")
                    && summary.get().getValue().contains("\"secondsSinceLastTick\"") ? Optional.empty()
                    : Optional.of("the summary during the outage did not report it: " + summary.get()));
            // The outage lasts a fixed time by design; meanwhile WildFly must stay up.
            await("PostgreSQL outage of " + outage.toSeconds() + " s").atMost(outage.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(250)).until(() -> {
                        if (!run.server().alive()) {
                            throw new IllegalStateException("WildFly died while PostgreSQL was down");
                        }
                        return !Instant.now().isBefore(down.plus(outage));
                    });
            run.database().restart();
            run.faultEnded();
            long outageTo = log.mark();

            log.copy(outageFrom, outageTo, run.dir().resolve("server-outage.log"));
            List<String> lines = log.linesBetween(outageFrom, outageTo);
            run.note("serverLogLinesDuringOutage", lines.size());
            run.note("serverLogLinesDuringOutageByLevel", countBy(lines, 1));
            run.note("serverLogLinesDuringOutageTopCategories", top(countBy(lines, 2), 5));

            run.checkAlso(() -> run.server().alive() && run.server().jvmPid() == wildfly ? Optional.empty()
                    : Optional.of("WildFly did not stay up: JVM " + wildfly + " is gone"));
            Verdict verdict = run.drainAndCheck(run.settings().pgDrain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /** Log records by level (group 1) or category (group 2); stack-trace lines are not records. */
    private static Map<String, Integer> countBy(List<String> lines, int group) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : lines) {
            Matcher m = LOG_LINE.matcher(line);
            counts.merge(m.find() ? m.group(group) : "(continuation)", 1, Integer::sum);
        }
        return counts;
    }

    private static Map<String, Integer> top(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new java.util.LinkedHashMap<>();
        counts.entrySet().stream().filter(e -> !e.getKey().equals("(continuation)"))
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
