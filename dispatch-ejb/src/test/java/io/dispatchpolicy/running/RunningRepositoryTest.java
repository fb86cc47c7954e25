package io.dispatchpolicy.running;

import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.admission.TestRepositories;
import io.dispatchpolicy.admission.TimedOut;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog's statements against the engine's test database (ADR 0030): a run timeout and a stall are
 * read on the database's clock (the rows' times are moved back, as time passing would), a checkpoint —
 * a rewrite of a JBeret step or partition row — is progress, a timed-out execution holds no slot and wakes
 * its key's waiting partitions, and only this node's executions among those its runners run are watched.
 */
class RunningRepositoryTest {

    private static final String POLICY = "it-watch"; // declared by nobody: no tick touches it
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final RunningRepository running = new RunningRepository();
    private final InflightRepository inflight = TestRepositories.inflight(jdbc);
    private final UUID node = UUID.randomUUID();
    private long partition;
    private long waiting;

    @BeforeEach
    void aPartitionWithAWaitingLane() {
        running.jdbc = jdbc;
        partition = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'k', '{}') RETURNING id",
                POLICY);
        // a lane of the same key, backed off by its full concurrency gate for a minute
        waiting = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, context, next_eligible_at, "
                + "last_deny_reason) VALUES (?, 'k', 'bulk', '{}', now() + interval '1 minute', 'concurrency_full') RETURNING id", POLICY);
    }

    @AfterEach
    void removeIt() {
        db.update("DELETE FROM dispatch.inflight_jobs WHERE partition_id = ?", partition);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    @Test
    void anExecutionPastItsRunTimeoutIsOverrunAndOnlyThen() {
        long late = execution(10_000, 5_000L, null);
        long inTime = execution(1_000, 5_000L, null);
        long noTimeout = execution(60_000, null, null);

        List<Watched> seen = running.watch(node, Set.of(late, inTime, noTimeout));

        assertThat(seen).extracting(Watched::executionId).containsExactly(late);
        assertThat(seen.get(0).overran()).isTrue();
        assertThat(seen.get(0).stalled()).isFalse();
        assertThat(seen.get(0).runTimeoutMs()).isEqualTo(5_000L);
    }

    @Test
    void onlyThisNodesExecutionsAmongThoseItRunsAreWatched() {
        long mine = execution(10_000, 5_000L, null);
        long notRunHere = execution(10_000, 5_000L, null);
        long othersNode = execution(10_000, 5_000L, null);
        db.update("UPDATE dispatch.inflight_jobs SET node_id = ? WHERE execution_id = ?", UUID.randomUUID(), othersNode);

        assertThat(running.watch(node, Set.of(mine, othersNode))).extracting(Watched::executionId).containsExactly(mine);
        assertThat(notRunHere).isNotEqualTo(mine);
    }

    @Test
    void aStepWithoutACheckpointForLongerThanTheProgressTimeoutStallsAndACheckpointIsProgress() {
        long id = execution(60_000, null, 2_000L);
        long step = db.count("INSERT INTO step_execution (jobexecutionid, stepname, batchstatus) VALUES (?, 'items', 'STARTED') "
                + "RETURNING stepexecutionid", id);

        assertThat(running.watch(node, Set.of(id))).as("first look: the mark is taken, nothing stalls").isEmpty();
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ? AND progress_at IS NOT NULL", id))
                .isEqualTo(1);
        backInTime(id, 1);
        assertThat(running.watch(node, Set.of(id))).as("1 s without a checkpoint, under 2 s").isEmpty();
        backInTime(id, 2);
        List<Watched> stalled = running.watch(node, Set.of(id));
        assertThat(stalled).hasSize(1);
        assertThat(stalled.get(0).stalled()).isTrue();
        assertThat(stalled.get(0).overran()).isFalse();

        // a checkpoint: JBeret rewrites the step's row
        db.update("UPDATE step_execution SET commitcount = 1 WHERE stepexecutionid = ?", step);
        assertThat(running.watch(node, Set.of(id))).as("a checkpoint is progress").isEmpty();
        backInTime(id, 3);
        assertThat(running.watch(node, Set.of(id))).hasSize(1);

        // a partition's checkpoint rewrites its partition row
        db.update("INSERT INTO partition_execution (partitionexecutionid, stepexecutionid, batchstatus) VALUES (0, ?, 'STARTED')", step);
        assertThat(running.watch(node, Set.of(id))).as("a partition began").isEmpty();
        backInTime(id, 3);
        db.update("UPDATE partition_execution SET version = 1 WHERE stepexecutionid = ?", step);
        assertThat(running.watch(node, Set.of(id))).as("a partition's checkpoint is progress").isEmpty();
    }

    @Test
    void aTimedOutExecutionHoldsNoSlotWakesItsKeyAndTimesOutOnce() {
        long id = execution(10_000, 5_000L, null);
        long other = execution(0, null, null);
        assertThat(inflight.count(partition)).isEqualTo(2);

        Optional<TimedOut> fired = inflight.timedOut(id, node, "timed out after 5 s");

        assertThat(fired).contains(new TimedOut(POLICY, partition, true));
        assertThat(inflight.count(partition)).as("the timed-out execution holds no slot").isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE id = ? AND next_eligible_at IS NULL", waiting))
                .as("its key's lane waiting for a slot is eligible again").isEqualTo(1);
        assertThat(inflight.timeoutReason(id)).contains("timed out after 5 s");
        assertThat(inflight.timeoutReason(other)).isEmpty();
        assertThat(inflight.timedOut(id, node, "again")).as("a timeout fires once").isEmpty();
        assertThat(inflight.timedOut(other, UUID.randomUUID(), "not its node")).isEmpty();

        List<Watched> after = running.watch(node, Set.of(id));
        assertThat(after).hasSize(1);
        assertThat(after.get(0).timedOut()).isTrue();
        db.update("UPDATE dispatch.inflight_jobs SET timed_out_at = timed_out_at - interval '2 seconds' WHERE execution_id = ?", id);
        assertThat(running.watch(node, Set.of(id)).get(0).sinceTimedOutMs()).isBetween(2_000L, 60_000L);
    }

    @Test
    void aStopAskedElsewhereIsPendingUntilThisNodeDeliversItQueuedOrRunning() {
        long started = execution(1_000, null, null);
        long queued = execution(1_000, null, null);
        db.update("UPDATE dispatch.inflight_jobs SET started_at = NULL WHERE execution_id = ?", queued);
        long notAsked = execution(1_000, null, null);
        assertThat(held(Set.of(started, queued, notAsked))).isEmpty();

        db.update("UPDATE dispatch.inflight_jobs SET stop_requested_at = clock_timestamp() WHERE execution_id IN (?, ?)", started, queued);
        List<Watched> pending = held(Set.of(started, queued, notAsked));
        assertThat(pending).extracting(Watched::executionId).containsExactlyInAnyOrder(started, queued);
        assertThat(pending).allSatisfy(w -> {
            assertThat(w.stopPending()).isTrue();
            assertThat(w.overran()).isFalse();
            assertThat(w.timedOut()).isFalse();
        });
        assertThat(inflight.ownerOf(started).orElseThrow().id()).isEqualTo(node);

        inflight.stopDelivered(started);
        assertThat(held(Set.of(started, queued, notAsked))).extracting(Watched::executionId).containsExactly(queued);
        assertThat(running.watch(UUID.randomUUID(), Set.of(queued))).as("another node's rows are not this one's to deliver").isEmpty();
    }

    private List<Watched> held(Set<Long> held) {
        return running.watch(node, held);
    }

    /** A running execution of this node, started {@code startedMsAgo} ago, with JBeret's rows. */
    private long execution(long startedMsAgo, Long runTimeoutMs, Long progressTimeoutMs) {
        long instance = db.count("INSERT INTO job_instance (jobname) VALUES ('it-watch') RETURNING jobinstanceid");
        long id = db.count("INSERT INTO job_execution (jobinstanceid, batchstatus) VALUES (?, 'STARTED') RETURNING jobexecutionid",
                instance);
        db.update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, policy_name, node_id, "
                + "admitted_at, started_at, run_timeout_ms, progress_timeout_ms) VALUES (?, ?, ?, ?, ?, ?, now(), "
                + "clock_timestamp() - ? * interval '1 millisecond', ?, ?)", id, id, partition, partition, POLICY, node, startedMsAgo,
                runTimeoutMs, progressTimeoutMs);
        return id;
    }

    /** The execution's last progress, seconds earlier: time passing without a checkpoint. */
    private void backInTime(long id, int seconds) {
        db.update("UPDATE dispatch.inflight_jobs SET progress_at = progress_at - ? * interval '1 second' WHERE execution_id = ?",
                seconds, id);
    }
}
