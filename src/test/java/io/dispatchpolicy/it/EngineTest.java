package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.lifecycle.TickLoop;
import io.dispatchpolicy.tick.TickRunner;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Base of the engine's system tests: the node's own tick is stopped ({@code dispatch.tick-enabled},
 * as an operator would) so each test drives tick iterations itself and counts exactly, on a node whose
 * threads admit everything ({@code dispatch.node-threads=unlimited}, unless the test sets them); settings
 * a test changes are put back afterwards.
 */
abstract class EngineTest extends SystemTest {

    @Inject
    TickRunner ticks;

    @Inject
    TickLoop timer;

    @Inject
    DispatchOperator dispatch;

    private final Map<String, String> changed = new HashMap<>();
    private final Set<String> touched = new HashSet<>();
    private long ticksBefore;
    private long lastSampleBefore;
    private boolean tickAllowed;

    @BeforeEach
    void stopTheNodesTick() {
        set("dispatch.tick-enabled", "false");
        // the gates' and rounds' counts are the subject here, not this node's threads (NodeThreadsIT's):
        // a test admits what its policy allows in one iteration, as on a node with threads to spare
        set("dispatch.node-threads", "unlimited");
        // no tick running, and none starting, for longer than the idle chain's one-second poll
        await().atMost(Duration.ofSeconds(30)).during(Duration.ofMillis(1_500)).until(() -> !timer.isTicking());
        ticksBefore = timer.ticksStarted();
        lastSampleBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.tick_samples");
    }

    /**
     * Checks that nothing but the test iterated (the counts these tests assert depend on it), then
     * discards what the test left staged and puts its settings back — in that order, since the
     * node's tick may start again once the settings are restored.
     */
    @AfterEach
    void checkNoTickRanThenCleanUp() {
        try {
            assertOnlyTheTestIterated();
        } finally {
            try {
                discardWhatIsLeftStaged();
            } finally {
                restoreSettings();
                tickAllowed = false;
            }
        }
    }

    private void assertOnlyTheTestIterated() {
        if (tickAllowed) {
            return;
        }
        List<String> samples = db.strings("SELECT concat_ws(' ', 'node', node_id, 'started', started_at, 'iterations',"
                + " iterations, 'admitted', admitted) FROM dispatch.tick_samples WHERE id > ?"
                // samples a test seeds carry made-up node ids; real ticks come from registered nodes
                + " AND node_id IN (SELECT id FROM dispatch.nodes) ORDER BY id", lastSampleBefore);
        assertThat(timer.ticksStarted() - ticksBefore)
                .as("ticks this node started while dispatch.tick-enabled=false (tick samples since: %s)", samples)
                .isZero();
        assertThat(samples).as("ticks any node recorded during the test").isEmpty();
    }

    /** For a test about the node's own tick: lets it run, and skips the check that it did not. */
    void letTheNodeTick() {
        tickAllowed = true;
        set("dispatch.tick-enabled", "true");
    }

    private void discardWhatIsLeftStaged() {
        Object[] policies = touched.toArray(new String[0]);
        db.update("DELETE FROM dispatch.staged_jobs s USING dispatch.partitions p WHERE s.partition_id = p.id "
                + "AND p.policy_name = ANY(?)", (Object) policies);
        db.update("UPDATE dispatch.partitions SET pending_count = 0, parked_count = 0, scheduled_count = 0, top_priority = 0 "
                + "WHERE policy_name = ANY(?)",
                (Object) policies);
        touched.clear();
    }

    private void restoreSettings() {
        changed.forEach((key, value) -> {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        });
        changed.clear();
    }

    /** Changes a setting the way {@code jboss-cli}'s write-attribute does; restored after the test. */
    void set(String key, String value) {
        if (!changed.containsKey(key)) { // not putIfAbsent: it replaces a recorded null (a property that was unset)
            changed.put(key, System.getProperty(key));
        }
        System.setProperty(key, value);
    }

    /** Deletes the schedules a test created, and the occurrences they left staged. */
    void deleteSchedules(io.dispatchpolicy.console.schedule.ScheduleControl control, List<String> names) {
        for (String name : names) {
            if (control.schedule(name).isPresent()) {
                control.delete(name, Operators.ADMIN);
            }
        }
        db.update("DELETE FROM dispatch.staged_jobs WHERE schedule_id IS NOT NULL AND schedule_id NOT IN (SELECT id FROM dispatch.schedules)");
    }

    /** A schedule's live future occurrence: its submission id and run time (epoch ms); exactly one must exist. */
    List<Long> future(String name) {
        List<String> row = db.strings("SELECT o.submission_id || ' ' || (extract(epoch FROM o.run_at) * 1000)::bigint "
                + "FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = ? AND o.state = 'future' AND o.kind = 'grid'", name);
        assertThat(row).as("the live future of %s", name).hasSize(1);
        String[] parts = row.get(0).split(" ");
        return List.of(Long.valueOf(parts[0]), Long.valueOf(parts[1]));
    }

    /** Marks a policy whose staged jobs the test leaves behind to be discarded after it (as {@link #stage} does). */
    void touch(String policy) {
        touched.add(policy);
    }

    long[] stage(String policyAndJob, String tenant, int count, String... moreParams) {
        return stage(policyAndJob, tenant, count, new io.dispatchpolicy.api.SubmitOption[0], moreParams);
    }

    /** Like {@link #stage}, with submission options (a lane, a priority…). */
    long[] stage(String policyAndJob, String tenant, int count, io.dispatchpolicy.api.SubmitOption[] options, String... moreParams) {
        touched.add(policyAndJob);
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Properties p = Params.of(moreParams);
            p.setProperty("tenant", tenant);
            jobs.add(p);
        }
        return dispatch.submitAll(policyAndJob, jobs, options);
    }

    /** Like {@link #stage}, with submission options (priority, delay, time). */
    long[] submit(String policyAndJob, String tenant, int count, io.dispatchpolicy.api.SubmitOption... options) {
        touched.add(policyAndJob);
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Properties p = new Properties();
            p.setProperty("tenant", tenant);
            jobs.add(p);
        }
        return dispatch.submitAll(policyAndJob, jobs, options);
    }

    long partitionId(String policy, String key) {
        return db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?", policy, key);
    }

    /**
     * Jobs admitted from the partition so far. Checks first that only the test's own iterations
     * admitted: the end-of-test check would catch a stray tick too, but only as a suppressed error
     * behind the count that did not match; here its message is the one reported.
     */
    long admitted(String policy, String key) {
        assertOnlyTheTestIterated();
        return db.count("SELECT total_admitted FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?",
                policy, key);
    }

    String column(String column, String policy, String key) {
        List<String> v = db.strings("SELECT " + column + "::text FROM dispatch.partitions WHERE policy_name = ? "
                + "AND partition_key = ?", policy, key);
        return v.isEmpty() ? null : v.get(0);
    }

    /** Seconds until the partition may be claimed again (negative or null when it may be now). */
    Double secondsUntilEligible(String policy, String key) {
        List<String> v = db.strings("SELECT extract(epoch FROM next_eligible_at - clock_timestamp())::text "
                + "FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?", policy, key);
        return v.isEmpty() || v.get(0) == null ? null : Double.valueOf(v.get(0));
    }

    /** A node that stays alive through any test (its heartbeat is in the future): owner of fake slots. */
    private static final String SLOT_HOLDER = "00000000-0000-0000-0000-00000000510e";

    /**
     * Fake in-flight rows (negative execution ids) that gates count as running jobs. They belong to a
     * live node of their own: this node's reconcile would release rows of its own that no runner holds.
     */
    void occupySlots(String policy, String key, int count) {
        long partition = partitionId(policy, key);
        // it admits nothing (no shard): the dashboard must not count it as a node serving every shard
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, shards) VALUES (?::uuid, 'slot-holder', "
                + "now(), now() + interval '1 day', '{}') ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at, "
                + "stopped_at = NULL, shards = '{}'", SLOT_HOLDER);
        for (int i = 0; i < count; i++) {
            db.update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, policy_name, node_id, "
                    + "admitted_at, started_at) VALUES (-nextval('dispatch.submission_id_seq'), 0, ?, ?, ?, ?::uuid, now(), now())",
                    partition, partition, policy, SLOT_HOLDER);
        }
    }

    void freeSlots(String policy, String key) {
        db.update("DELETE FROM dispatch.inflight_jobs WHERE execution_id < 0 AND partition_id = ?", partitionId(policy, key));
    }
}
