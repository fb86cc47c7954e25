package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Recurring schedules in the deployed engine (ADR 0012): one live future occurrence per enabled
 * schedule, held by the database; chaining in the admission transaction; catch-up; skip; run now;
 * declarations in code and standalone.xml applied by the watchdog. Time is moved by moving an
 * occurrence's run time into the past, as an outage would leave it.
 */
class ScheduleIT extends EngineTest {

    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");

    @Inject
    ScheduleControl control;

    @Inject
    ScheduleWatchdog watchdog;

    @Inject
    DispatchSchedules api;

    @Inject
    io.dispatchpolicy.console.PolicyControl policies;

    private final List<String> created = new ArrayList<>();

    @AfterEach
    void deleteTheTestsSchedules() {
        deleteSchedules(control, created);
    }

    @Test
    void aNewScheduleHasExactlyOneFutureOccurrenceOnItsGridStagedUnderThePassThroughPolicy() {
        create(every("s-grid", "it-scheduled", 15, ScheduleUnit.MINUTES, false));

        List<Long> future = future("s-grid");
        long runAt = future.get(1);
        assertThat(runAt % Duration.ofMinutes(15).toMillis()).as("on the grid").isZero();
        assertThat(runAt).isBetween(System.currentTimeMillis() - 5_000, System.currentTimeMillis() + Duration.ofMinutes(15).toMillis());
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE s.id = ? AND s.schedule_id IS NOT NULL AND p.policy_name = 'dispatch-schedules' AND p.partition_key = 's-grid' "
                + "AND (extract(epoch FROM s.due_at) * 1000)::bigint = ? AND p.scheduled_count = 1", future.get(0), runAt)).isEqualTo(1);
        assertThat(api.start("s-grid")).as("start is idempotent").isFalse();
        assertThat(control.nextRunTimes("s-grid", Instant.ofEpochMilli(runAt), 2))
                .containsExactly(Instant.ofEpochMilli(runAt).plus(Duration.ofMinutes(15)), Instant.ofEpochMilli(runAt).plus(Duration.ofMinutes(30)));
        assertThat(control.schedules().stream().filter(s -> s.name().equals("s-grid")).findFirst().orElseThrow().nextRuns())
                .hasSize(3).first().isEqualTo(Instant.ofEpochMilli(runAt));
    }

    @Test
    void disablingLeavesNoFutureAndEnablingRestoresOne() {
        create(every("s-toggle", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        long first = future("s-toggle").get(0);

        assertThat(api.disable("s-toggle")).isTrue();
        assertThat(futures("s-toggle")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", first)).isZero();
        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?", first))
                .containsExactly("superseded disabled");
        assertThat(db.count("SELECT scheduled_count FROM dispatch.partitions WHERE policy_name = 'dispatch-schedules' "
                + "AND partition_key = 's-toggle'")).isZero();
        assertThat(api.disable("s-toggle")).isFalse();

        assertThat(api.enable("s-toggle")).isTrue();
        assertThat(futures("s-toggle")).isEqualTo(1);
        assertThat(db.count("SELECT scheduled_count FROM dispatch.partitions WHERE policy_name = 'dispatch-schedules' "
                + "AND partition_key = 's-toggle'")).isEqualTo(1);
    }

    @Test
    void editingTheIntervalSupersedesTheFutureOnTheNewGrid() {
        create(every("s-edit", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        long old = future("s-edit").get(0);

        control.edit("s-edit", every("s-edit", "it-scheduled", 7, ScheduleUnit.MINUTES, false), Operators.ADMIN);

        assertThat(db.strings("SELECT state || ' ' || reason || ' ' || (snapshot ->> 'interval') FROM dispatch.schedule_occurrences "
                + "WHERE submission_id = ?", old)).containsExactly("superseded edited 15");
        List<Long> now = future("s-edit");
        assertThat(now.get(0)).isNotEqualTo(old);
        assertThat(now.get(1) % Duration.ofMinutes(7).toMillis()).as("on the 7-minute grid from the anchor")
                .isEqualTo(ANCHOR.toEpochMilli() % Duration.ofMinutes(7).toMillis());
        assertThat(db.count("SELECT version FROM dispatch.schedules WHERE name = 's-edit'")).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE schedule_id = (SELECT id FROM dispatch.schedules "
                + "WHERE name = 's-edit')")).isEqualTo(1);
    }

    @Test
    void anAdmittedOccurrenceStagesTheNextInItsOwnTransaction() {
        create(every("s-chain", "it-scheduled", 15, ScheduleUnit.MINUTES, true));
        List<Long> original = future("s-chain");
        // staged before an outage, 20 minutes before its grid point (off the grid): due now whatever the time
        rewind("s-chain", Duration.ofMinutes(20));

        assertThat(ticks.iterate().admitted()).isEqualTo(1);

        assertThat(dispatch.status(original.get(0)).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(db.strings("SELECT state FROM dispatch.schedule_occurrences WHERE submission_id = ? AND execution_id IS NOT NULL",
                original.get(0))).containsExactly("admitted");
        List<Long> next = future("s-chain");
        assertThat(next.get(1)).as("the grid point after the admitted run (caught up: already due)")
                .isEqualTo(original.get(1) - Duration.ofMinutes(15).toMillis());
        assertThat(futures("s-chain")).isEqualTo(1);
    }

    @Test
    void withCatchUpTenMissedOccurrencesRunOneAtATimeThroughTheirPolicy() {
        create(new ScheduleDefinition("s-catch", "it-schedule-serial", Map.of("tenant", "catch", "sleepMs", "50"), soon(), 1,
                ScheduleUnit.MINUTES, null, ZoneId.of("UTC"), null, null, true, true));
        long runAt = future("s-catch").get(1);
        rewind("s-catch", Duration.ofMinutes(10)); // staged before a 10-minute outage: due at R - 10 min

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            ticks.iterate();
            return occurrences("s-catch", "admitted") == 10 && futures("s-catch") == 1
                    && db.count("SELECT count(*) FROM job_execution e JOIN dispatch.schedule_occurrences o ON o.execution_id = "
                    + "e.jobexecutionid JOIN dispatch.schedules s ON s.id = o.schedule_id WHERE s.name = 's-catch' "
                    + "AND e.batchstatus = 'COMPLETED'") == 10;
        });

        List<Long> admitted = db.strings("SELECT (extract(epoch FROM o.run_at) * 1000)::bigint FROM dispatch.schedule_occurrences o "
                + "JOIN dispatch.schedules s ON s.id = o.schedule_id WHERE s.name = 's-catch' AND o.state = 'admitted' ORDER BY o.run_at")
                .stream().map(Long::valueOf).toList();
        List<Long> expected = new ArrayList<>();
        for (int k = 10; k >= 1; k--) {
            expected.add(runAt - Duration.ofMinutes(k).toMillis());
        }
        assertThat(admitted).isEqualTo(expected);
        assertThat(future("s-catch").get(1)).as("then the grid point the outage would have run next").isEqualTo(runAt);
        assertThat(db.count("SELECT count(*) FROM job_execution a, job_execution b, dispatch.schedule_occurrences oa, "
                + "dispatch.schedule_occurrences ob WHERE oa.execution_id = a.jobexecutionid AND ob.execution_id = b.jobexecutionid "
                + "AND oa.schedule_id = ob.schedule_id AND oa.schedule_id = (SELECT id FROM dispatch.schedules WHERE name = 's-catch') "
                + "AND a.jobexecutionid < b.jobexecutionid AND a.starttime < b.endtime AND b.starttime < a.endtime"))
                .as("pairs of its executions that overlapped (the policy runs one at a time)").isZero();
    }

    @Test
    void afterAMonthsOutageCatchUpRunsItsLimitCountingTheOccurrenceLiveBeforeItAndSkipsTheRestWithOneWarning() throws Exception {
        // a 15-minute grid anchored 60 days back with a point 10 minutes ahead: R, the live future
        Instant anchor = Instant.now().plus(Duration.ofMinutes(10)).minus(Duration.ofDays(60))
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        create(new ScheduleDefinition("s-limit", "it-scheduled", Map.of("tenant", "limit"), anchor, 15, ScheduleUnit.MINUTES,
                null, ZoneId.of("UTC"), null, null, true, true));
        long r = future("s-limit").get(1);
        long quarter = Duration.ofMinutes(15).toMillis();
        // staged before an outage of 2,880 grid points: the live one and the 2,879 after it have all passed
        rewind("s-limit", Duration.ofMinutes(15).multipliedBy(2_880));
        java.nio.file.Path log = java.nio.file.Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        long logBefore = java.nio.file.Files.readAllLines(log).size();

        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(1)).until(() -> {
            ticks.iterate();
            return future("s-limit").get(1) == r;
        });

        assertThat(occurrences("s-limit", "admitted")).as("late runs: the live one and 999 missed after it").isEqualTo(1_000);
        assertThat(db.strings("SELECT (extract(epoch FROM min(o.run_at)) * 1000)::bigint || ' ' || (extract(epoch FROM max(o.run_at)) "
                + "* 1000)::bigint FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = 's-limit' AND o.state = 'admitted'"))
                .containsExactly((r - 2_880 * quarter) + " " + (r - 1_881 * quarter));
        assertThat(db.strings("SELECT (extract(epoch FROM catch_up_cut_from) * 1000)::bigint || ' ' "
                + "|| (extract(epoch FROM catch_up_cut_to) * 1000)::bigint FROM dispatch.schedules WHERE name = 's-limit'"))
                .as("the 1,880 points skipped").containsExactly((r - 1_880 * quarter) + " " + (r - quarter));
        assertThat(futures("s-limit")).isEqualTo(1);
        List<String> written = java.nio.file.Files.readAllLines(log);
        assertThat(written.subList((int) logBefore, written.size())).filteredOn(l -> l.contains("Schedule 's-limit'") && l.contains("WARN"))
                .singleElement().asString().contains("1000 missed runs caught up").contains("1880 more are skipped");
    }

    @Test
    void anOccurrenceNotAdmittedByItsDeadlineExpiresNeverRunsAndTheNextRunIsStaged() {
        create(every("s-deadline", "it-scheduled", 15, ScheduleUnit.MINUTES, false).withDeadline(Duration.ofSeconds(60)));
        List<Long> original = future("s-deadline");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND expires_at = due_at + interval '60 seconds'",
                original.get(0))).as("its staged row expires a minute after its run time").isEqualTo(1);
        // staged before an outage of 20 minutes: its run time and its deadline have passed
        rewind("s-deadline", Duration.ofMinutes(20));

        ticks.iterate(); // the tick's expiry, or the admission that takes it: either records it EXPIRED

        assertThat(dispatch.status(original.get(0)).state()).isEqualTo(SubmissionStatus.State.EXPIRED);
        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?",
                original.get(0))).containsExactly("skipped expired");
        assertThat(db.strings("SELECT reason FROM dispatch.discarded_jobs WHERE submission_id = ?", original.get(0)))
                .containsExactly("expired");
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = ?", original.get(0))).isZero();
        assertThat(futures("s-deadline")).isEqualTo(1);
        assertThat(future("s-deadline").get(1)).as("the next grid point after now, as after a missed run").isEqualTo(original.get(1));
        assertThat(db.count("SELECT scheduled_count + pending_count FROM dispatch.partitions WHERE policy_name = 'dispatch-schedules' "
                + "AND partition_key = 's-deadline'")).as("the expired one out of its partition, the next one in").isEqualTo(1);
    }

    @Test
    void aCatchUpWithADeadlineSkipsTheMissedRunsPastItAndRunsTheFirstStillWithinIt() throws Exception {
        long quarter = Duration.ofMinutes(15).toMillis();
        long hour = Duration.ofHours(1).toMillis();
        create(every("s-late", "it-scheduled", 15, ScheduleUnit.MINUTES, true).withDeadline(Duration.ofHours(1)));
        List<Long> original = future("s-late");
        // staged before an outage of 5 hours: it expired 4 hours ago, with the 16 missed runs after it
        rewind("s-late", Duration.ofHours(5));
        long r = original.get(1) - Duration.ofHours(5).toMillis();
        java.nio.file.Path log = java.nio.file.Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        long logBefore = java.nio.file.Files.readAllLines(log).size();
        long before = dbNow();

        ticks.iterate();

        long after = dbNow();
        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?",
                original.get(0))).containsExactly("skipped expired");
        // the occurrence staged after it (the same iteration may have admitted it already: it is due at once)
        long first = db.count("SELECT (extract(epoch FROM o.run_at) * 1000)::bigint FROM dispatch.schedule_occurrences o "
                + "JOIN dispatch.schedules s ON s.id = o.schedule_id WHERE s.name = 's-late' AND o.submission_id <> ? "
                + "ORDER BY o.run_at LIMIT 1", original.get(0));
        assertThat(first % quarter).as("on the grid").isZero();
        assertThat(first).as("the first run whose hour is still ahead").isGreaterThan(before - hour)
                .isLessThanOrEqualTo(after - hour + quarter);
        assertThat(db.strings("SELECT (extract(epoch FROM catch_up_cut_from) * 1000)::bigint || ' ' "
                + "|| (extract(epoch FROM catch_up_cut_to) * 1000)::bigint FROM dispatch.schedules WHERE name = 's-late'"))
                .as("the missed runs past their deadline, skipped").containsExactly((r + quarter) + " " + (first - quarter));
        List<String> written = java.nio.file.Files.readAllLines(log);
        assertThat(written.subList((int) logBefore, written.size())).filteredOn(l -> l.contains("Schedule 's-late'") && l.contains("WARN"))
                .singleElement().asString().contains("missed runs are skipped, their deadline having passed too");

        // due at once and within its deadline: it runs
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                    + "WHERE s.name = 's-late' AND o.run_at = to_timestamp(? / 1000.0) AND o.state = 'admitted' "
                    + "AND o.execution_id IS NOT NULL", first) == 1;
        });
    }

    private long dbNow() {
        return db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
    }

    @Test
    void withoutCatchUpTheMissedOccurrenceIsSkippedAndTheNextIsTheNextGridPoint() {
        create(new ScheduleDefinition("s-nocatch", "it-schedule-serial", Map.of("tenant", "nocatch"), soon(), 1,
                ScheduleUnit.MINUTES, null, ZoneId.of("UTC"), null, null, false, true));
        List<Long> original = future("s-nocatch");
        rewind("s-nocatch", Duration.ofMinutes(10));

        assertThat(ticks.iterate().admitted()).isZero();

        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?",
                original.get(0))).containsExactly("skipped missed");
        assertThat(occurrences("s-nocatch", "admitted")).isZero();
        assertThat(future("s-nocatch").get(1)).isEqualTo(original.get(1));
        assertThat(db.count("SELECT pending_count + scheduled_count FROM dispatch.partitions WHERE policy_name = 'it-schedule-serial' "
                + "AND partition_key = 'nocatch'")).as("the next one, scheduled").isEqualTo(1);
    }

    @Test
    void skipNextNeverRunsThatPointAndStagesTheFollowingOne() {
        create(every("s-skip", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        List<Long> original = future("s-skip");

        assertThat(api.skipNext("s-skip")).contains(Instant.ofEpochMilli(original.get(1)));

        assertThat(db.strings("SELECT state FROM dispatch.schedule_occurrences WHERE submission_id = ?", original.get(0)))
                .containsExactly("skipped");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", original.get(0))).isZero();
        assertThat(future("s-skip").get(1)).isEqualTo(original.get(1) + Duration.ofMinutes(15).toMillis());

        api.disable("s-skip");
        api.enable("s-skip");
        assertThat(future("s-skip").get(1)).as("a skipped point is never reused").isEqualTo(original.get(1) + Duration.ofMinutes(15).toMillis());
    }

    @Test
    void aFutureAnOperatorDrainedIsSkippedAndTheWatchdogStagesTheNext() {
        create(every("s-drain", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        List<Long> drained = future("s-drain");
        long extra = api.runNow("s-drain");

        policies.drain("dispatch-schedules", Operators.ADMIN);
        assertThat(futures("s-drain")).as("still future in its table: nothing has looked yet").isEqualTo(1);
        pass();

        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id IN (?, ?) "
                + "ORDER BY kind", extra, drained.get(0))).containsExactly("skipped drained", "skipped drained");
        assertThat(future("s-drain").get(1)).as("the grid point after the drained one")
                .isEqualTo(drained.get(1) + Duration.ofMinutes(15).toMillis());
    }

    @Test
    void runNowAdmitsAnExtraRunAndLeavesTheGridAlone() {
        create(every("s-now", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        List<Long> before = future("s-now");

        long extra = api.runNow("s-now");

        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(dispatch.status(extra).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(db.strings("SELECT kind || ' ' || state FROM dispatch.schedule_occurrences WHERE submission_id = ?", extra))
                .containsExactly("extra admitted");
        assertThat(future("s-now")).isEqualTo(before);
    }

    @Test
    void theDatabaseRefusesASecondFutureAndAFutureOfADisabledSchedule() {
        create(every("s-db", "it-scheduled", 15, ScheduleUnit.MINUTES, false));
        String insert = "INSERT INTO dispatch.schedule_occurrences (schedule_id, schedule_version, run_at, submission_id, snapshot) "
                + "SELECT id, version, now(), nextval('dispatch.submission_id_seq'), '{}' FROM dispatch.schedules WHERE name = 's-db'";

        assertThat(sqlState(() -> db.update(insert))).isEqualTo("23505");
        api.disable("s-db");
        assertThat(sqlState(() -> db.update("UPDATE dispatch.schedules SET enabled = true WHERE name = 's-db' AND false"))).isNull();
        assertThat(sqlState(() -> db.update(insert))).as("a future of a disabled schedule").isEqualTo("23503");
        api.enable("s-db");
        assertThat(sqlState(() -> db.update("UPDATE dispatch.schedules SET version = version + 1 WHERE name = 's-db'")))
                .as("a new version while a future lives").isEqualTo("23503");
    }

    @Test
    void racingStartsWatchdogPassesAndChainingNeverMakeTwoFutures() throws Exception {
        create(every("s-race", "it-scheduled", 1, ScheduleUnit.SECONDS, true));
        java.nio.file.Path log = java.nio.file.Path.of(System.getProperty("jboss.server.log.dir"), "server.log");
        long logLinesBefore;
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(log)) {
            logLinesBefore = lines.count();
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong most = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> racers = List.of(
                    threads.submit(() -> { while (running.get()) { api.start("s-race"); } }),
                    threads.submit(() -> { while (running.get()) { watchdog.pass(); } }),
                    threads.submit(() -> { while (running.get()) { most.accumulateAndGet(futures("s-race"), Math::max); } }));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            while (System.nanoTime() < end) {
                ticks.iterate();
            }
            running.set(false);
            for (Future<?> racer : racers) {
                racer.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(most.get()).as("live futures seen at once").isEqualTo(1);
        assertThat(futures("s-race")).isEqualTo(1);
        List<String> runs = db.strings("SELECT run_at FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = 's-race' AND o.kind = 'grid' AND o.state = 'admitted'");
        assertThat(runs).as("admitted grid points").hasSizeGreaterThanOrEqualTo(3).doesNotHaveDuplicates();
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(log)) {
            assertThat(lines.skip(logLinesBefore).filter(l -> l.contains(" ERROR ") || l.contains(" WARN ")).limit(5).toList())
                    .as("ERROR and WARN lines logged during the race").isEmpty();
        }
    }

    @Test
    void aDefinitionThatCannotRunIsRefusedNamingTheScheduleAndTheField() {
        assertThatThrownBy(() -> create(every("s-bad", "no-such-job", 15, ScheduleUnit.MINUTES, false)))
                .isInstanceOf(io.dispatchpolicy.spi.ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 's-bad': job 'no-such-job'");
        assertThatThrownBy(() -> create(new ScheduleDefinition("s-bad", "it-scheduled", Map.of(), ANCHOR, 0, ScheduleUnit.MINUTES,
                null, ZoneId.of("UTC"), null, null, false, true)))
                .isInstanceOf(io.dispatchpolicy.spi.ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 's-bad': interval");
        assertThatThrownBy(() -> create(new ScheduleDefinition("s-bad", "it-scheduled", Map.of(), ANCHOR, 1, ScheduleUnit.MINUTES,
                "0 8 * * *", ZoneId.of("UTC"), null, null, false, true)))
                .isInstanceOf(io.dispatchpolicy.spi.ScheduleDeclarationException.class).hasMessageContaining("s-bad");
        assertThat(control.schedule("s-bad")).isEmpty();
    }

    @Test
    void aCodeDeclarationIsStagedByTheWatchdogAndAStandaloneXmlChangeMovesItToTheNewGrid() {
        pass();
        List<Long> hourly = future("it-declared");
        assertThat(hourly.get(1) % Duration.ofHours(1).toMillis()).isZero();

        set("dispatch.schedule.it-declared.interval", "2");
        pass();

        assertThat(db.strings("SELECT state || ' ' || reason FROM dispatch.schedule_occurrences WHERE submission_id = ?",
                hourly.get(0))).containsExactly("superseded edited");
        assertThat(future("it-declared").get(1) % Duration.ofHours(2).toMillis()).isZero();

        assertThat(control.declarationProblem()).isEmpty();
        set("dispatch.schedule.it-declared.unit", "fortnights");
        List<Long> kept = future("it-declared");
        pass();
        assertThat(future("it-declared")).as("a bad live value leaves the last valid definition").isEqualTo(kept);
        // and the Schedules view says so, where schedules are (not only the log)
        assertThat(control.declarationProblem()).hasValueSatisfying(problem ->
                assertThat(problem).startsWith("Schedule 'it-declared': unit must be one of").contains("(was 'fortnights')"));
        java.net.http.HttpResponse<String> page = ConsoleHttp.get("schedules.xhtml", "viewer:viewer-secret");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("This node's standalone.xml has a schedule it cannot use")
                .contains("unit must be one of seconds|minutes|hours|days|weeks|months|years (was");

        System.clearProperty("dispatch.schedule.it-declared.unit");
        System.clearProperty("dispatch.schedule.it-declared.interval");
        pass();
        assertThat(future("it-declared").get(1) % Duration.ofHours(1).toMillis()).isZero();
        assertThat(control.declarationProblem()).isEmpty();
        assertThat(ConsoleHttp.get("schedules.xhtml", "viewer:viewer-secret").body()).doesNotContain("has a schedule it cannot use");

        // a deadline from standalone.xml replaces the future with one that expires 10 minutes after its run
        set("dispatch.schedule.it-declared.deadline", "600");
        pass();
        List<Long> withDeadline = future("it-declared");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND expires_at = due_at + interval '600 seconds'",
                withDeadline.get(0))).isEqualTo(1);
        set("dispatch.schedule.it-declared.deadline", "0");
        pass();
        assertThat(future("it-declared")).as("a deadline of 0 is refused; the last valid one stays").isEqualTo(withDeadline);
        System.clearProperty("dispatch.schedule.it-declared.deadline");
        pass();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND expires_at IS NULL",
                future("it-declared").get(0))).isEqualTo(1);
    }

    // ---------------------------------------------------------------- helpers

    /** One watchdog pass of this test's own (the node's maintenance thread may hold the lock a moment). */
    private void pass() {
        await().atMost(Duration.ofSeconds(30)).until(() -> watchdog.pass() >= 0);
    }

    private static ScheduleDefinition every(String name, String job, int n, ScheduleUnit unit, boolean catchUp) {
        return new ScheduleDefinition(name, job, Map.of("tenant", name), ANCHOR, n, unit, null, ZoneId.of("UTC"), null, null,
                catchUp, true);
    }

    /**
     * An anchor an hour back whose minute grid has a point 45 s ahead: the schedule's next run stays in
     * the future while a test catches up on the ten before it (on a minute boundary it could come due
     * during the test, and run too; a grid has no points before its anchor).
     */
    private static Instant soon() {
        return Instant.now().plusSeconds(45).minus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    private void create(ScheduleDefinition d) {
        created.add(d.name());
        control.create(d, Operators.ADMIN);
    }

    private long futures(String name) {
        return occurrences(name, "future");
    }

    private long occurrences(String name, String state) {
        return db.count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = ? AND o.state = ? AND o.kind = 'grid'", name, state);
    }

    /** Moves the live future (occurrence and staged row) back in time, as if it had been staged before an outage. */
    private void rewind(String name, Duration by) {
        long id = future(name).get(0);
        db.update("UPDATE dispatch.schedule_occurrences SET run_at = run_at - make_interval(secs => ?) WHERE submission_id = ?",
                (double) by.toSeconds(), id);
        db.update("UPDATE dispatch.staged_jobs SET due_at = due_at - make_interval(secs => ?), expires_at = expires_at - make_interval(secs => ?) "
                + "WHERE id = ?", (double) by.toSeconds(), (double) by.toSeconds(), id);
    }

    /** The SQLSTATE a statement fails with, or null when it succeeds. */
    private static String sqlState(Runnable statement) {
        try {
            statement.run();
            return null;
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SQLException sql) {
                    return sql.getSQLState();
                }
            }
            throw e;
        }
    }
}
