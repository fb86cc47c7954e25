package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The server as configured by wildfly-config logs at INFO and above: governed jobs that run leave no
 * TRACE or DEBUG line in server.log (a logger added without a level logs everything, ALL, and the batch
 * subsystem then writes TRACE lines for every job).
 */
class ServerLogIT extends SystemTest {

    @Inject
    DispatchOperator dispatch;

    @Test
    void runningJobsLogsNothingBelowInfo() throws Exception {
        long[] ids = dispatch.submitAll("it-flow", List.of(Params.of("tenant", "log-a"), Params.of("tenant", "log-b")));
        for (long id : ids) {
            await().atMost(Duration.ofSeconds(60)).until(() -> dispatch.status(id).executionId().isPresent()
                    && "COMPLETED".equals(db.batchStatus(dispatch.status(id).executionId().getAsLong())));
        }

        Path log = Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        List<String> belowInfo;
        try (Stream<String> lines = Files.lines(log)) {
            // WildFly's own configuration logs the boot's system properties at DEBUG (org.jboss.as.config)
            belowInfo = lines.filter(line -> line.contains(" TRACE ")
                    || line.contains(" DEBUG ") && !line.contains(" DEBUG [org.jboss.as.config] ")).limit(5).toList();
        }
        assertThat(belowInfo).as("TRACE/DEBUG lines in server.log (the first five)").isEmpty();
    }

    /**
     * dispatch.cli's filter on WildFly's batch logger (ADR 0010): the two stop reports that are no error (an execution
     * already not running, WFLYBATCH000015; a deployment's stop losing the race with its own job operator's stop,
     * WFLYBATCH000023) are WARN lines; any other batch ERROR stays an ERROR.
     */
    @Test
    void wildFlysBenignBatchStopReportsAreWarningsAndOtherBatchErrorsStayErrors() throws Exception {
        String tag = "log-filter-" + java.util.UUID.randomUUID();
        java.util.logging.Logger batch = java.util.logging.Logger.getLogger("org.wildfly.extension.batch");
        batch.severe("WFLYBATCH000023: Failed to stop running jobs on deployment " + tag + ".war.");
        batch.severe("WFLYBATCH000015: " + tag + " is not running");
        batch.severe("WFLYBATCH000099: " + tag + " a genuine error");
        Path log = Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        List<String> logged = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            logged.clear();
            try (Stream<String> lines = Files.lines(log)) {
                lines.filter(l -> l.contains(tag)).forEach(logged::add);
            }
            return logged.size() == 3;
        });
        assertThat(logged.get(0)).contains(" WARN ").contains("WFLYBATCH000023");
        assertThat(logged.get(1)).contains(" WARN ").contains("WFLYBATCH000015");
        // java.util.logging's SEVERE keeps its name in the log (WildFly's own ERRORs are logged through JBoss Logging)
        assertThat(logged.get(2)).containsAnyOf(" ERROR ", " SEVERE ").doesNotContain(" WARN ").contains("WFLYBATCH000099");
    }

    /**
     * The console's pages with view parameters log no Faces warning when viewed: their {@code f:metadata} is a direct
     * child of the view (the layout's "metadata" insert), not inside the page's content, where Mojarra logged JSF1103
     * on every view.
     */
    @Test
    void theConsolesPagesWithViewParametersLogNoFacesWarning() throws Exception {
        Path log = Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        long before;
        try (Stream<String> lines = Files.lines(log)) {
            before = lines.count();
        }
        for (String page : List.of("partition.xhtml?id=1", "jobs.xhtml", "job.xhtml?id=1000000000001", "schedule.xhtml?name=it-declared",
                "schedule-form.xhtml?name=it-declared", "audit.xhtml")) {
            assertThat(ConsoleHttp.get(page, "admin:admin-secret").statusCode()).as(page).isEqualTo(200);
        }
        List<String> warnings;
        try (Stream<String> lines = Files.lines(log)) {
            warnings = lines.skip(before).filter(line -> line.contains("JSF1103")).limit(3).toList();
        }
        assertThat(warnings).as("Faces warnings the pages logged").isEmpty();
    }
}
