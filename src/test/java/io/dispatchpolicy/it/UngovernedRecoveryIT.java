package io.dispatchpolicy.it;

import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.upkeep.StrandedExecutions;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stranded executions of ungoverned jobs (issue 35, deliverable 5; ADR 0032), on one server: every execution
 * JBeret creates records its server (the datasource's connection name) and the database's time; with
 * {@code dispatch.recover-ungoverned} an execution left STARTED by a server that is gone is marked FAILED, and
 * with {@code restart} restarted here once with its own parameters; a live server's is never touched. The
 * gone server is written as recovery finds one (a stopped boot of another name); its execution is a real
 * one of this deployment, put back to STARTED as the gone server left it.
 */
class UngovernedRecoveryIT extends EngineTest {

    @Inject
    StrandedExecutions stranded;

    @Inject
    ThisNode node;

    private final JobOperator jberet = BatchRuntime.getJobOperator();

    @Test
    void aGoneServersExecutionIsMarkedFailedAndRestartedOnceAndALiveOnesIsLeftAlone() {
        long ghosts = execution();
        long mine = execution();
        assertThat(db.strings("SELECT dispatch_node FROM job_execution WHERE jobexecutionid = ?", mine))
                .as("JBeret's INSERT recorded this server").containsExactly("dispatch:" + node.name());
        String ghost = "it-ghost-" + System.nanoTime();
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key, stopped_at) VALUES "
                + "(gen_random_uuid(), ?, now() - interval '1 hour', now() - interval '1 minute', nextval('dispatch.node_lock_key_seq'), "
                + "now() - interval '1 minute')", ghost);
        strand(ghosts, "dispatch:" + ghost);
        strand(mine, "dispatch:" + node.name());

        assertThat(stranded.pass()).as("off by default").isZero();
        assertThat(db.batchStatus(ghosts)).isEqualTo("STARTED");

        set("dispatch.recover-ungoverned", "restart");
        assertThat(stranded.pass()).as("marked, and restarted").isEqualTo(2);
        assertThat(db.strings("SELECT batchstatus || ' ' || exitstatus FROM job_execution WHERE jobexecutionid = ?", ghosts))
                .containsExactly("FAILED FAILED by dispatch: its server " + ghost + " is gone");
        assertThat(db.batchStatus(mine)).as("a live server's execution").isEqualTo("STARTED");
        List<Long> runs = db.strings("SELECT jobexecutionid::text FROM job_execution WHERE jobinstanceid = "
                + "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?) ORDER BY jobexecutionid", ghosts)
                .stream().map(Long::valueOf).toList();
        assertThat(runs).hasSize(2);
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(db.batchStatus(runs.get(1))));
        assertThat(db.strings("SELECT jobparameters FROM job_execution WHERE jobexecutionid = ?", runs.get(1)).get(0))
                .as("restarted with its own parameters").contains("tenant = ghost's");
        assertThat(db.count("SELECT count(*) FROM dispatch.ungoverned_restarts WHERE execution_id = ?", ghosts)).isZero();

        assertThat(stranded.pass()).as("nothing twice").isZero();
        db.update("UPDATE job_execution SET batchstatus = 'COMPLETED' WHERE jobexecutionid = ?", mine); // as it was
    }

    @Test
    void markFailedMarksWithoutRestarting() {
        long ghosts = execution();
        String ghost = "it-ghost-" + System.nanoTime();
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key, stopped_at) VALUES "
                + "(gen_random_uuid(), ?, now() - interval '1 hour', now() - interval '1 minute', nextval('dispatch.node_lock_key_seq'), "
                + "now() - interval '1 minute')", ghost);
        strand(ghosts, "dispatch:" + ghost);
        set("dispatch.recover-ungoverned", "mark-failed");

        assertThat(stranded.pass()).isEqualTo(1);
        assertThat(db.batchStatus(ghosts)).isEqualTo("FAILED");
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = "
                + "(SELECT jobinstanceid FROM job_execution WHERE jobexecutionid = ?)", ghosts)).as("not restarted").isEqualTo(1);
    }

    /** A real execution of an ungoverned job of this deployment, COMPLETED. */
    private long execution() {
        Properties p = new Properties();
        p.setProperty("tenant", "ghost's");
        long id = jberet.start("it-ungoverned", p);
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(db.batchStatus(id)));
        return id;
    }

    /** Puts the execution back as a server left it when it died mid-run: STARTED, created by {@code node} 5 minutes ago. */
    private void strand(long execution, String node) {
        db.update("UPDATE job_execution SET batchstatus = 'STARTED', endtime = NULL, dispatch_node = ?, "
                + "dispatch_created_at = now() - interval '5 minutes' WHERE jobexecutionid = ?", node, execution);
        db.update("UPDATE step_execution SET batchstatus = 'STARTED' WHERE jobexecutionid = ?", execution);
    }
}
