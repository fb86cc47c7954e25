package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Fixed-delay schedules (issue 39, deliverable 3; ADR 0054): the next run is due a delay after the previous one ended
 * for good, staged by the end hook in the transaction that records the end; never two live at once, whatever the
 * watchdog, run now, skip, disable, enable or an edit do meanwhile.
 */
class FixedDelayIT extends EngineTest {

    @Inject
    ScheduleControl control;

    @Inject
    ScheduleWatchdog watchdog;

    @Inject
    DispatchSchedules api;

    private final List<String> created = new ArrayList<>();

    @AfterEach
    void deleteTheTestsSchedules() {
        deleteSchedules(control, created);
    }

    @Test
    void tenRunsOfOneToThreeSecondsEachStartTwoSecondsOrMoreAfterThePreviousEndedNeverOverlapping() {
        create(afterEnd("s-delay", Duration.ofSeconds(2), "1000-3000"));
        long schedule = db.count("SELECT id FROM dispatch.schedules WHERE name = 's-delay'");
        List<String> liveAtOnce = new ArrayList<>();
        long[] polls = {0};

        await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            // every few polls a watchdog pass too: it must find nothing to stage while a run has not ended
            if (++polls[0] % 10 == 0) {
                watchdog.pass();
            }
            long live = db.count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE schedule_id = ? "
                    + "AND (state = 'future' OR awaits_end)", schedule);
            if (live != 1) {
                liveAtOnce.add(live + " live at poll " + polls[0]);
            }
            return db.count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE schedule_id = ? AND finished_at IS NOT NULL",
                    schedule) >= 10;
        });
        api.disable("s-delay");

        assertThat(liveAtOnce).as("exactly one run live (staged or not ended) at every look").isEmpty();
        // JBeret's own times: start of each run against the end of the one before it
        List<String> runs = db.strings("SELECT (extract(epoch FROM e.starttime) * 1000)::bigint || ' ' || "
                + "(extract(epoch FROM e.endtime) * 1000)::bigint || ' ' || e.batchstatus "
                + "FROM dispatch.schedule_occurrences o JOIN job_execution e ON e.jobexecutionid = o.execution_id "
                + "WHERE o.schedule_id = ? AND o.finished_at IS NOT NULL ORDER BY o.run_at LIMIT 10", schedule);
        assertThat(runs).hasSize(10);
        long lengthsSeen = runs.stream().map(r -> r.split(" ")).mapToLong(r -> Long.parseLong(r[1]) - Long.parseLong(r[0]))
                .filter(ms -> ms >= 900).count();
        assertThat(lengthsSeen).as("runs of 1-3 s").isEqualTo(10);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < runs.size(); i++) {
            String[] previous = runs.get(i - 1).split(" ");
            String[] run = runs.get(i).split(" ");
            assertThat(run[2]).isEqualTo("COMPLETED");
            gaps.add(Long.parseLong(run[0]) - Long.parseLong(previous[1]));
        }
        assertThat(gaps).as("each start at least 2 s after the previous end (ms)").hasSize(9).allMatch(gap -> gap >= 2_000);
        assertThat(db.count("SELECT count(*) FROM dispatch.followers f JOIN dispatch.schedule_occurrences o "
                + "ON o.submission_id = f.after_submission WHERE o.schedule_id = ? AND f.kind = 'schedule' AND f.state = 'staged'", schedule))
                .as("each of the first ten ends staged the next").isGreaterThanOrEqualTo(10);
    }

    @Test
    void runNowSkipDisableEnableAndEditKeepOneRunLiveCountedFromTheLastEnd() {
        create(afterEnd("s-delay-ops", Duration.ofSeconds(60), "2500"));
        long schedule = db.count("SELECT id FROM dispatch.schedules WHERE name = 's-delay-ops'");
        List<Long> first = future("s-delay-ops");
        assertThat(first.get(1)).as("never ran: the first run is due at once").isLessThanOrEqualTo(System.currentTimeMillis());

        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(futures(schedule)).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE schedule_id = ? AND awaits_end", schedule)).isEqualTo(1);
        assertThat(db.strings("SELECT kind || ' ' || state FROM dispatch.followers WHERE after_submission = ?", first.get(0)))
                .containsExactly("schedule waiting");
        watchdog.pass();
        assertThat(futures(schedule)).as("the watchdog stages nothing while the run has not ended").isZero();
        assertThatThrownBy(() -> api.runNow("s-delay-ops")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has not ended yet: it never runs twice at once");

        await().atMost(Duration.ofSeconds(30)).until(() -> futures(schedule) == 1);
        assertThat(db.batchStatus(db.count("SELECT execution_id FROM dispatch.schedule_occurrences WHERE submission_id = ?",
                first.get(0)))).isEqualTo("COMPLETED");
        assertThat(db.strings("SELECT state FROM dispatch.followers WHERE after_submission = ?", first.get(0))).containsExactly("staged");
        assertThat(delaySinceLastEnd(schedule)).as("due 60 s after the end (ms)").isBetween(60_000L, 60_999L);

        long next = future("s-delay-ops").get(0);
        assertThat(api.runNow("s-delay-ops")).as("run now makes the staged run due now").isEqualTo(next);
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE submission_id = ? AND state = 'admitted'", next))
                .isEqualTo(1);

        // disabled while it runs: it finishes, and its end stages nothing
        assertThat(api.disable("s-delay-ops")).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ? "
                + "AND state = 'skipped' AND detail = 'COMPLETED: schedule disabled'", next) == 1);
        assertThat(futures(schedule)).isZero();

        assertThat(api.enable("s-delay-ops")).isTrue();
        assertThat(delaySinceLastEnd(schedule)).as("enabled: a delay after the last end, not at once").isBetween(60_000L, 60_999L);

        List<Long> toSkip = future("s-delay-ops");
        assertThat(api.skipNext("s-delay-ops")).isPresent();
        List<Long> afterSkip = future("s-delay-ops");
        assertThat(afterSkip.get(1) - toSkip.get(1)).as("skipped: a delay after the skipped run's time").isEqualTo(60_000L);

        control.edit("s-delay-ops", afterEnd("s-delay-ops", Duration.ofSeconds(90), "2500"), Operators.ADMIN);
        assertThat(delaySinceLastEnd(schedule)).as("edited: the new delay after the last end").isBetween(90_000L, 90_999L);
        assertThat(futures(schedule)).isEqualTo(1);
    }

    @Test
    void theWriteApiCreatesReadsAndRefusesFixedDelaySchedulesNamingTheField() {
        String admin = "admin:admin-secret";
        String poll = "{\"name\":\"s-delay-api\",\"job\":\"it-scheduled\",\"parameters\":{\"tenant\":\"s-delay-api\"},\"delay\":600}";
        created.add("s-delay-api");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/schedules", poll.replace("600", "0"), admin, null), 400, "delay",
                "delay must be 1 second to 366 days");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/schedules", poll.replace("}", ",\"cron\":\"0 3 * * *\"}"), admin, null),
                400, "delay", "delay cannot be combined with cron");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/schedules", poll.replace("}", ",\"catchUp\":true}"), admin, null),
                400, "catchUp", "catch-up has no meaning with a delay");
        assertThat(control.schedule("s-delay-api")).as("nothing stored by the refusals").isEmpty();

        assertThat(ApiCalls.send("POST", "api/schedules", poll, admin, null).statusCode()).isEqualTo(201);
        jakarta.json.JsonObject read = ApiCalls.json(ApiCalls.send("GET", "api/schedules/s-delay-api", null, "viewer:viewer-secret", null));
        assertThat(read.getInt("delay")).isEqualTo(600);
        assertThat(read.containsKey("cron") || read.containsKey("anchor")).isFalse();
        assertThat(read.getString("when")).isEqualTo("600 s after each run ended");
        assertThat(read.getJsonArray("nextRuns")).as("never ran: its first run, due at once").hasSize(1);
    }

    // ---------------------------------------------------------------- helpers

    private static ScheduleDefinition afterEnd(String name, Duration delay, String sleepMs) {
        return new ScheduleDefinition(name, "it-scheduled", Map.of("tenant", name, "sleepMs", sleepMs), null, null, null, null,
                ZoneId.of("UTC"), null, null, false, true, null, null, delay);
    }

    private void create(ScheduleDefinition d) {
        created.add(d.name());
        control.create(d, Operators.ADMIN);
    }

    private long futures(long schedule) {
        return db.count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE schedule_id = ? AND state = 'future'", schedule);
    }

    /** The live future's run time less the schedule's last end, in ms. */
    private long delaySinceLastEnd(long schedule) {
        return db.count("SELECT (extract(epoch FROM (SELECT run_at FROM dispatch.schedule_occurrences WHERE schedule_id = ? "
                + "AND state = 'future') - (SELECT max(finished_at) FROM dispatch.schedule_occurrences WHERE schedule_id = ?)) * 1000)::bigint",
                schedule, schedule);
    }
}
