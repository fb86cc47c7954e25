package io.dispatchpolicy.it;

import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule's actions and the admission of its occurrence take their locks in one order (ADR 0012:
 * partitions, then the schedule): an action racing an admission waits for it, never deadlocks with it.
 */
class ScheduleLockOrderIT extends EngineTest {

    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");

    @Inject
    ScheduleControl control;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    private final List<String> created = new ArrayList<>();

    @AfterEach
    void deleteTheTestsSchedules() {
        deleteSchedules(control, created);
    }

    private static ScheduleDefinition every(String name, int minutes) {
        return new ScheduleDefinition(name, "it-scheduled", Map.of("tenant", name), ANCHOR, minutes, ScheduleUnit.MINUTES, null,
                ZoneId.of("UTC"), null, null, false, true);
    }

    private void create(ScheduleDefinition d) {
        created.add(d.name());
        control.create(d, Operators.ADMIN);
    }

    private long futures(String name) {
        return db.count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = ? AND o.state = 'future' AND o.kind = 'grid'", name);
    }

    /**
     * The interleaving that deadlocked (issue 31), forced: a transaction takes the locks an admission of
     * the schedule's occurrence takes, in its order — the occurrence's partition, then, once the action
     * is waiting on a lock, the schedule FOR KEY SHARE (as chaining does). An action that locked the
     * schedule before the partition closes a cycle here, and PostgreSQL aborts one side with 40P01.
     */
    private void whileAnAdmissionHoldsTheOccurrencesPartition(String name, Consumer<String> action) throws Exception {
        create(every(name, 15));
        long live = future(name).get(0);
        long partition = db.count("SELECT partition_id FROM dispatch.staged_jobs WHERE id = ?", live);
        long schedule = db.count("SELECT id FROM dispatch.schedules WHERE name = ?", name);
        CountDownLatch partitionHeld = new CountDownLatch(1);
        CountDownLatch actionWaits = new CountDownLatch(1);
        Future<?> admission = executor.submit(() -> db.inTransactionOfItsOwn(() -> {
            db.count("SELECT count(*) FROM (SELECT id FROM dispatch.partitions WHERE id = ? FOR UPDATE) x", partition);
            partitionHeld.countDown();
            try {
                assertThat(actionWaits.await(60, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            db.count("SELECT count(*) FROM (SELECT id FROM dispatch.schedules WHERE id = ? FOR KEY SHARE) x", schedule);
        }));
        assertThat(partitionHeld.await(60, TimeUnit.SECONDS)).isTrue();
        Future<?> acting = executor.submit(() -> action.accept(name));
        // the action is blocked on a lock: on the partition, in the one order (or, in the old one, having
        // taken the schedule first)
        await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' "
                + "AND wait_event_type = 'Lock' AND query LIKE '%dispatch.partitions%'") >= 1);
        actionWaits.countDown();
        admission.get(60, TimeUnit.SECONDS); // a deadlock fails one of these two with 40P01
        acting.get(60, TimeUnit.SECONDS);
    }

    @Test
    void anEditWaitsForTheAdmissionAndThenAppliesOnTheNewGrid() throws Exception {
        whileAnAdmissionHoldsTheOccurrencesPartition("lo-edit", n -> control.edit(n, every(n, 10), Operators.ADMIN));
        assertThat(db.count("SELECT version FROM dispatch.schedules WHERE name = 'lo-edit'")).isEqualTo(2);
        assertThat(futures("lo-edit")).isEqualTo(1);
        assertThat(future("lo-edit").get(1) % Duration.ofMinutes(10).toMillis()).as("on the 10-minute grid").isZero();
    }

    @Test
    void aDisableWaitsForTheAdmission() throws Exception {
        whileAnAdmissionHoldsTheOccurrencesPartition("lo-disable", n -> control.disable(n, Operators.ADMIN));
        assertThat(futures("lo-disable")).isZero();
        assertThat(db.strings("SELECT enabled::text FROM dispatch.schedules WHERE name = 'lo-disable'")).containsExactly("false");
    }

    @Test
    void aSkipWaitsForTheAdmission() throws Exception {
        whileAnAdmissionHoldsTheOccurrencesPartition("lo-skip", n -> control.skipNext(n, Operators.ADMIN));
        assertThat(db.count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = 'lo-skip' AND o.state = 'skipped'")).isEqualTo(1);
        assertThat(futures("lo-skip")).isEqualTo(1);
    }

    @Test
    void aDeleteWaitsForTheAdmission() throws Exception {
        whileAnAdmissionHoldsTheOccurrencesPartition("lo-delete", n -> control.delete(n, Operators.ADMIN));
        assertThat(db.count("SELECT count(*) FROM dispatch.schedules WHERE name = 'lo-delete'")).isZero();
    }

    @Test
    void aHundredEditsRacingTheAdmissionOfTheirDueOccurrenceAllApplyWithOneLiveFutureEach() throws Exception {
        String name = "lo-race";
        create(every(name, 15));
        for (int round = 0; round < 100; round++) {
            long live = future(name).get(0);
            // due now, as if its time had come: the next iteration admits it while the edit runs
            db.update("UPDATE dispatch.schedule_occurrences SET run_at = now() - interval '1 second' WHERE submission_id = ?", live);
            db.update("UPDATE dispatch.staged_jobs SET due_at = now() - interval '1 second' WHERE id = ?", live);
            int minutes = round % 2 == 0 ? 10 : 15;
            Future<?> admission = executor.submit(() -> ticks.iterate());
            Future<?> edit = executor.submit(() -> control.edit(name, every(name, minutes), Operators.ADMIN));
            admission.get(60, TimeUnit.SECONDS);
            edit.get(60, TimeUnit.SECONDS); // a deadlock surfaces here as 40P01
            assertThat(db.count("SELECT version FROM dispatch.schedules WHERE name = ?", name)).as("round %d", round)
                    .isEqualTo(round + 2L);
            assertThat(db.count("SELECT interval_count FROM dispatch.schedules WHERE name = ?", name)).isEqualTo(minutes);
            assertThat(futures(name)).as("live futures after round %d", round).isEqualTo(1);
        }
    }
}
