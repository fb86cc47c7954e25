package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Schedules an application creates, changes, lists and deletes through {@link DispatchSchedules} (issue 39,
 * deliverable 5): checked as every other source's, idempotent by name, one live future each however many threads
 * create them, changed and deleted only where they were created, left alone by the watchdog's sync of declarations.
 */
class SchedulesApiIT extends EngineTest {

    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");
    private static final String PREFIX = "api-t-";

    @Inject
    DispatchSchedules api;

    @Inject
    ScheduleControl control;

    @Inject
    ScheduleWatchdog watchdog;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @AfterEach
    void deleteWhatTheTestCreated() {
        api.list(PREFIX).forEach(s -> api.delete(s.name()));
        api.list("api-one").forEach(s -> api.delete(s.name()));
    }

    private static Schedule tenant(int i) {
        return Schedule.named(String.format("%s%04d", PREFIX, i)).job("it-scheduled").parameter("tenant", "t" + i)
                .every(1, ScheduleUnit.DAYS).from(ANCHOR).build();
    }

    private long futures(String like) {
        return db.count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name LIKE ? AND o.state = 'future' AND o.kind = 'grid'", like);
    }

    @Test
    void aThousandSchedulesCreatedByFourThreadsHaveOneLiveFutureEachAndDeletingThemLeavesNone() throws Exception {
        // four threads, 250 schedules each, and each also creates the first 25 of the next thread's: the same name
        // created twice at once is created once
        List<Future<Integer>> parts = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int first = t * 250;
            parts.add(executor.submit(() -> {
                int created = 0;
                for (int i = first; i < first + 250; i++) {
                    created += api.create(tenant(i)) ? 1 : 0;
                    if (i < first + 25) {
                        created += api.create(tenant((i + 250) % 1000)) ? 1 : 0;
                    }
                }
                return created;
            }));
        }
        int created = 0;
        for (Future<Integer> part : parts) {
            created += part.get(5, TimeUnit.MINUTES);
        }

        assertThat(created).as("each name created once, by whichever thread came first").isEqualTo(1000);
        assertThat(db.count("SELECT count(*) FROM dispatch.schedules WHERE name LIKE 'api-t-%' AND source = 'api'")).isEqualTo(1000);
        assertThat(futures("api-t-%")).as("one live future each").isEqualTo(1000);
        assertThat(db.count("SELECT count(*) FROM (SELECT o.schedule_id FROM dispatch.schedule_occurrences o "
                + "JOIN dispatch.schedules s ON s.id = o.schedule_id WHERE s.name LIKE 'api-t-%' AND o.state = 'future' "
                + "GROUP BY o.schedule_id HAVING count(*) = 1) one")).isEqualTo(1000);
        assertThat(api.list(PREFIX)).hasSize(1000);
        assertThat(api.list("api-t-0042")).containsExactly(tenant(42));

        parts.clear();
        for (int t = 0; t < 4; t++) {
            int first = t * 250;
            parts.add(executor.submit(() -> {
                int deleted = 0;
                for (int i = first; i < first + 250; i++) {
                    deleted += api.delete(tenant(i).name()) ? 1 : 0;
                }
                return deleted;
            }));
        }
        int deleted = 0;
        for (Future<Integer> part : parts) {
            deleted += part.get(5, TimeUnit.MINUTES);
        }
        assertThat(deleted).isEqualTo(1000);
        assertThat(api.delete(tenant(7).name())).as("deleting what is not there").isFalse();
        assertThat(api.list(PREFIX)).isEmpty();
        assertThat(db.count("SELECT count(*) FROM dispatch.schedules WHERE name LIKE 'api-t-%'")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE schedule_id IS NOT NULL "
                + "AND schedule_id NOT IN (SELECT id FROM dispatch.schedules)")).as("no occurrence left staged").isZero();
    }

    @Test
    void anApplicationsScheduleIsChangedOnlyThroughTheApiAndTheOthersOnlyWhereTheyAreDeclared() {
        Schedule daily = Schedule.named("api-one").job("it-scheduled").parameter("tenant", "one").every(1, ScheduleUnit.DAYS)
                .from(ANCHOR).build();
        assertThat(api.create(daily)).isTrue();
        Schedule hourly = Schedule.named("api-one").job("it-scheduled").parameter("tenant", "one").every(1, ScheduleUnit.HOURS)
                .from(ANCHOR).build();
        assertThat(api.create(hourly)).as("idempotent by name: the one there stays").isFalse();
        assertThat(api.list("api-one")).containsExactly(daily);
        assertThat(control.schedules().stream().filter(s -> s.name().equals("api-one")).findFirst().orElseThrow().source())
                .as("the console shows where it comes from").isEqualTo("api");

        api.update(hourly);
        assertThat(api.list("api-one")).containsExactly(hourly);
        List<Long> future = future("api-one");
        assertThat(future.get(1) % Duration.ofHours(1).toMillis()).as("the future moved to the new grid").isZero();
        assertThat(future.get(1)).isLessThanOrEqualTo(System.currentTimeMillis() + Duration.ofHours(1).toMillis());

        // the watchdog's sync of declarations leaves it alone: not declared, yet kept enabled
        await().atMost(Duration.ofSeconds(30)).until(() -> watchdog.pass() >= 0);
        assertThat(control.schedule("api-one").orElseThrow().summary().enabled()).isTrue();
        assertThat(futures("api-one")).isEqualTo(1);

        assertThatThrownBy(() -> control.delete("api-one", Operators.ADMIN)).isInstanceOf(ScheduleActionRefused.class)
                .hasMessage("Schedule 'api-one' is created by the application, through DispatchSchedules: it is deleted there, "
                        + "not in the console");
        Schedule declared = Schedule.named("it-declared").job("it-scheduled").every(1, ScheduleUnit.DAYS).from(ANCHOR).build();
        assertThatThrownBy(() -> api.create(declared)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A schedule named 'it-declared' exists already, from code (a CDI producer of io.dispatchpolicy.spi.Schedule)");
        assertThatThrownBy(() -> api.update(declared)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Schedule 'it-declared' is declared in code (a CDI producer): it is edited there, not through DispatchSchedules");
        assertThatThrownBy(() -> api.delete("it-declared")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("it is deleted there, not through DispatchSchedules");
        assertThatThrownBy(() -> api.update(Schedule.named("api-none").job("it-scheduled").every(1, ScheduleUnit.DAYS).from(ANCHOR)
                .build())).isInstanceOf(IllegalArgumentException.class).hasMessage("No schedule named 'api-none'");
        assertThatThrownBy(() -> api.create(Schedule.named("api-one-lane").job("it-badin-lanes").parameter("tenant", "scheduled")
                .lane("express").every(1, ScheduleUnit.DAYS).from(ANCHOR).build()))
                .as("checked as every source's: its policy must accept its parameters, priority and lane")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Schedule 'api-one-lane': job 'it-badin-lanes' with these parameters, priority and lane would be refused")
                .hasMessageContaining("no lane 'express'");
        assertThat(api.list("api-one-lane")).isEmpty();
        assertThat(api.list("api-one")).containsExactly(hourly);
    }
}
