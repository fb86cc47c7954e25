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
}
