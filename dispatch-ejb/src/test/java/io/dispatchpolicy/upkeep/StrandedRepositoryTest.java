package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.infrastructure.jberet.JobRepositoryIndexes;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which executions of ungoverned jobs count as stranded (ADR 0032), against the engine's test database: those
 * whose server — the boots of the name their connection gave, alive when they were created — is gone, and no
 * other: not a live server's, not one two boots of a name could own, not one created before any boot of its
 * name, not a governed one, not one whose connection named no server — whatever application started it.
 */
class StrandedRepositoryTest {

    private static final String APP = "it-stranded-app";
    private static final Duration STALE = Duration.ofSeconds(300);
    private static final Duration GRACE = Duration.ofSeconds(10);

    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final StrandedRepository stranded = new StrandedRepository();
    private final UUID me = UUID.randomUUID();
    private final String tag = "n" + System.nanoTime();

    @BeforeEach
    void columns() {
        JobRepositoryIndexes.over(jdbc).ensure();
        stranded.jdbc = jdbc;
        db.update("DELETE FROM dispatch.ungoverned_restarts");
    }

    @AfterEach
    void removeIt() {
        db.update("DELETE FROM dispatch.nodes WHERE node_name LIKE ?", tag + "%");
        db.update("DELETE FROM dispatch.ungoverned_restarts");
    }

    @Test
    void onlyExecutionsWhoseServerIsGoneAreMarkedWithTheirStepsAndARestartIsOwedForEach() {
        boot(tag + "-gone", 60, 1);           // started an hour ago, stopped a minute ago
        boot(tag + "-live", 60, null);        // started an hour ago, heartbeat now
        boot(tag + "-twice", 60, 20);         // its first boot: stopped 20 min ago
        boot(tag + "-twice", 10, null);       // its second: alive since 10 min
        long gone = execution(tag + "-gone", 30, APP, "STARTED");
        long step = db.count("INSERT INTO step_execution (jobexecutionid, stepname, batchstatus) VALUES (?, 's', 'STARTED') "
                + "RETURNING stepexecutionid", gone);
        db.update("INSERT INTO partition_execution (partitionexecutionid, stepexecutionid, batchstatus) VALUES (0, ?, 'STARTED')", step);
        long stopping = execution(tag + "-gone", 30, APP, "STOPPING");
        long live = execution(tag + "-live", 30, APP, "STARTED");
        long firstBoot = execution(tag + "-twice", 30, APP, "STARTED");
        long secondBoot = execution(tag + "-twice", 5, APP, "STARTED");
        long beforeAnyBoot = execution(tag + "-gone", 90, APP, "STARTED");
        long otherApp = execution(tag + "-gone", 30, "another-app", "STARTED");
        long ended = execution(tag + "-gone", 30, APP, "COMPLETED");
        long unnamed = execution(null, 30, APP, "STARTED");
        long governed = execution(tag + "-gone", 30, APP, "STARTED");
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at) VALUES (?, ?, 0, now())",
                -governed, governed);
        try {
            List<Stranded> marked = stranded.markFailed(me, true, STALE, GRACE, 100);

            assertThat(marked).extracting(Stranded::executionId).containsExactly(gone, stopping, firstBoot, otherApp);
            assertThat(marked.get(0)).isEqualTo(new Stranded(gone, tag + "-gone", 2));
            assertThat(status(gone)).isEqualTo("FAILED FAILED by dispatch: its server " + tag + "-gone is gone");
            assertThat(db.strings("SELECT batchstatus FROM step_execution WHERE stepexecutionid = ?", step)).containsExactly("FAILED");
            assertThat(db.strings("SELECT batchstatus FROM partition_execution WHERE stepexecutionid = ?", step)).containsExactly("FAILED");
            for (long untouched : List.of(live, secondBoot, beforeAnyBoot, unnamed, governed)) {
                assertThat(status(untouched)).as("execution %d", untouched).startsWith("STARTED");
            }
            assertThat(status(ended)).startsWith("COMPLETED");
            assertThat(stranded.markFailed(me, true, STALE, GRACE, 100)).as("each is marked once").isEmpty();

            assertThat(stranded.owedRestarts(me, STALE, GRACE, 100)).containsExactly(gone, stopping, firstBoot, otherApp);
            UUID other = UUID.randomUUID();
            assertThat(stranded.owedRestarts(other, STALE, GRACE, 100)).as("a node unknown to the nodes table is gone: its restarts are owed")
                    .containsExactly(gone, stopping, firstBoot, otherApp);
            stranded.paid(gone);
            assertThat(stranded.owedRestarts(me, STALE, GRACE, 100)).containsExactly(stopping, firstBoot, otherApp);
        } finally {
            db.update("DELETE FROM dispatch.admissions WHERE execution_id = ?", governed);
        }
    }

    @Test
    void markFailedAloneOwesNoRestartAndALiveMarkersRestartsAreItsOwn() {
        boot(tag + "-gone", 60, 1);
        UUID marker = boot(tag + "-marker", 60, null);
        long gone = execution(tag + "-gone", 30, APP, "STARTED");
        assertThat(stranded.markFailed(me, false, STALE, GRACE, 100)).extracting(Stranded::executionId).containsExactly(gone);
        assertThat(stranded.owedRestarts(me, STALE, GRACE, 100)).isEmpty();

        long another = execution(tag + "-gone", 30, APP, "STARTED");
        assertThat(stranded.markFailed(marker, true, STALE, GRACE, 100)).extracting(Stranded::executionId).containsExactly(another);
        assertThat(stranded.owedRestarts(me, STALE, GRACE, 100)).as("the marker lives: the restart is its to make").isEmpty();
        assertThat(stranded.owedRestarts(marker, STALE, GRACE, 100)).containsExactly(another);
    }

    /** A boot of {@code name}, started {@code startedMinutesAgo}, stopped {@code stoppedMinutesAgo} (null: alive, heartbeat now). */
    private UUID boot(String name, int startedMinutesAgo, Integer stoppedMinutesAgo) {
        UUID id = UUID.randomUUID();
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key, stopped_at) VALUES (?, ?, "
                        + "now() - ? * interval '1 minute', now(), nextval('dispatch.node_lock_key_seq'), "
                        + "now() - ? * interval '1 minute')", id, name, startedMinutesAgo, stoppedMinutesAgo);
        return id;
    }

    /** An execution of {@code application} created {@code minutesAgo} on a connection of server {@code node} (null: of none). */
    private long execution(String node, int minutesAgo, String application, String status) {
        long instance = db.count("INSERT INTO job_instance (jobname, applicationname) VALUES ('it-stranded', ?) RETURNING jobinstanceid",
                application);
        return db.count("INSERT INTO job_execution (jobinstanceid, batchstatus, dispatch_node, dispatch_created_at) "
                + "VALUES (?, ?, ?, now() - ? * interval '1 minute') RETURNING jobexecutionid", instance, status,
                node == null ? "PostgreSQL JDBC Driver" : StrandedRepository.APPLICATION_NAME_PREFIX + node, minutesAgo);
    }

    private String status(long execution) {
        return db.strings("SELECT batchstatus || coalesce(' ' || exitstatus, '') FROM job_execution WHERE jobexecutionid = ?", execution)
                .get(0);
    }
}
