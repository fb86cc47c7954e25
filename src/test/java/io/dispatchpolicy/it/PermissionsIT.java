package io.dispatchpolicy.it;

import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.audit.ActionRefused;
import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.ConsoleRole;
import io.dispatchpolicy.console.audit.OperatorAction;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The permission matrix (ADR 0022): every operator action the console and the API offer, tried by an actor of
 * each console role (and of none), on objects that do not exist so that an allowed action changes nothing
 * either. A refused action throws {@link ActionRefused} naming the role it needs and writes one audit row
 * "refused"; an allowed one gets past the check (it answers or fails on the missing object) and writes one
 * audit row "done" or "failed". Viewers may do none; operators every operator action; admins all.
 */
class PermissionsIT extends EngineTest {

    private static final long NO_JOB = Long.MAX_VALUE - 7;
    private static final long NO_PARTITION = Long.MAX_VALUE - 7;
    private static final String NO_POLICY = "perm-no-such-policy";
    private static final String NO_SCHEDULE = "perm-no-such-schedule";

    @Inject
    JobControl jobs;

    @Inject
    DeadJobControl dead;

    @Inject
    PartitionControl partitions;

    @Inject
    PolicyControl policies;

    @Inject
    ScheduleControl schedules;

    @Inject
    io.dispatchpolicy.console.bulk.BulkActionControl bulk;

    private Map<OperatorAction, Consumer<Actor>> everyAction() {
        Map<OperatorAction, Consumer<Actor>> all = new EnumMap<>(OperatorAction.class);
        all.put(OperatorAction.JOB_STOP, a -> jobs.stop(NO_JOB, a));
        // a job XML this deployment does not have: refused by staging's check, so nothing is staged
        all.put(OperatorAction.JOB_SUBMIT, a -> jobs.submit(new io.dispatchpolicy.console.jobs.SubmitRequest("perm-no-such-job",
                List.of(Map.of()), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null), a));
        all.put(OperatorAction.JOB_RESTART, a -> jobs.restart(NO_JOB, a));
        all.put(OperatorAction.JOB_DISCARD, a -> jobs.discard(NO_JOB, a));
        all.put(OperatorAction.GROUP_CANCEL, a -> jobs.cancelGroup(NO_JOB, a));
        all.put(OperatorAction.DEAD_RETRY, a -> dead.retryNow(List.of(NO_JOB), a));
        all.put(OperatorAction.DEAD_DISCARD, a -> dead.discard(List.of(NO_JOB), a));
        all.put(OperatorAction.PARTITION_FORCE_ADMIT, a -> partitions.forceAdmit(NO_PARTITION, 1, a));
        all.put(OperatorAction.PARTITION_DRAIN, a -> partitions.drain(NO_PARTITION, a));
        all.put(OperatorAction.PARTITION_PAUSE, a -> partitions.pause(NO_PARTITION, Instant.now().plusSeconds(60), "perm", a));
        all.put(OperatorAction.PARTITION_RESUME, a -> partitions.resume(NO_PARTITION, a));
        all.put(OperatorAction.PARTITION_OVERRIDE, a -> partitions.setOverride(NO_PARTITION,
                new io.dispatchpolicy.console.OverrideChange("gate", "concurrency", "max", 1.0, null), a));
        all.put(OperatorAction.POLICY_PAUSE, a -> policies.pause(NO_POLICY, a));
        all.put(OperatorAction.POLICY_RESUME, a -> policies.resume(NO_POLICY, a));
        all.put(OperatorAction.POLICY_DRAIN, a -> policies.drain(NO_POLICY, a));
        // a policy nobody declared: the action matches nothing and is done at its first batch
        all.put(OperatorAction.BULK_ACTION, a -> bulk.start(io.dispatchpolicy.console.bulk.BulkKind.DISCARD,
                new io.dispatchpolicy.console.bulk.JobFilter(NO_POLICY, null, null, null, null, null), a));
        all.put(OperatorAction.BULK_CANCEL, a -> bulk.cancel(NO_JOB, a));
        all.put(OperatorAction.SCHEDULE_RUN_NOW, a -> schedules.runNow(NO_SCHEDULE, a));
        // a job XML this deployment does not have: refused by staging's check, so nothing is created
        all.put(OperatorAction.SCHEDULE_CREATE, a -> schedules.create(new ScheduleDefinition("perm-created", "perm-no-such-job",
                Map.of(), Instant.parse("2026-01-01T00:00:00Z"), 5, ScheduleUnit.MINUTES, null, ZoneId.of("UTC"), null, null,
                false, true), a));
        all.put(OperatorAction.SCHEDULE_EDIT, a -> schedules.edit(NO_SCHEDULE, null, a));
        all.put(OperatorAction.SCHEDULE_DELETE, a -> schedules.delete(NO_SCHEDULE, a));
        all.put(OperatorAction.SCHEDULE_ENABLE, a -> schedules.enable(NO_SCHEDULE, a));
        all.put(OperatorAction.SCHEDULE_DISABLE, a -> schedules.disable(NO_SCHEDULE, a));
        all.put(OperatorAction.SCHEDULE_SKIP, a -> schedules.skipNext(NO_SCHEDULE, a));
        // a name no calendar may have: refused by the calendar's own check, so nothing is written
        all.put(OperatorAction.CALENDAR_SAVE, a -> schedules.saveCalendar("perm no calendar", Map.of(), a));
        all.put(OperatorAction.CALENDAR_DELETE, a -> schedules.deleteCalendar("perm-no-such-calendar", a));
        assertThat(all.keySet()).as("every action offered is in the matrix")
                .containsExactlyInAnyOrderElementsOf(OperatorAction.offered());
        return all;
    }

    @Test
    void eachActionIsAllowedOrRefusedByRoleAsDocumentedWithOneAuditRowEach() {
        Map<ConsoleRole, List<OperatorAction>> allowed = Map.of(
                ConsoleRole.VIEWER, List.of(),
                ConsoleRole.OPERATOR, List.of(OperatorAction.JOB_SUBMIT, OperatorAction.PARTITION_PAUSE, OperatorAction.PARTITION_RESUME,
                        OperatorAction.JOB_STOP, OperatorAction.JOB_RESTART, OperatorAction.JOB_DISCARD, OperatorAction.GROUP_CANCEL,
                        OperatorAction.DEAD_RETRY, OperatorAction.DEAD_DISCARD, OperatorAction.PARTITION_FORCE_ADMIT,
                        OperatorAction.PARTITION_DRAIN, OperatorAction.PARTITION_OVERRIDE, OperatorAction.POLICY_PAUSE, OperatorAction.POLICY_RESUME,
                        OperatorAction.POLICY_DRAIN, OperatorAction.SCHEDULE_RUN_NOW, OperatorAction.BULK_ACTION, OperatorAction.BULK_CANCEL),
                ConsoleRole.ADMIN, OperatorAction.offered());
        for (ConsoleRole role : ConsoleRole.values()) {
            Actor actor = Actor.of("perm-" + role + "-" + UUID.randomUUID(), role);
            everyAction().forEach((action, attempt) -> {
                Throwable thrown = catchThrowable(() -> attempt.accept(actor));
                String outcome = db.strings("SELECT outcome FROM dispatch.audit_log WHERE actor = ? AND action = ?",
                        actor.name(), action.name()).toString();
                if (allowed.get(role).contains(action)) {
                    assertThat(thrown instanceof ActionRefused).as(role + " " + action + " allowed, threw " + thrown).isFalse();
                    assertThat(outcome).as(role + " " + action).isIn("[done]", "[failed]");
                } else {
                    assertThat(thrown).as(role + " " + action).isInstanceOf(ActionRefused.class)
                            .hasMessageContaining("Not allowed: only " + action.role().roleName())
                            .hasMessageContaining(action.verb());
                    assertThat(outcome).as(role + " " + action).isEqualTo("[refused]");
                }
            });
            assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE actor = ?", actor.name()))
                    .as("one row per action for " + role).isEqualTo(OperatorAction.offered().size());
        }
        assertThat(db.count("SELECT count(*) FROM dispatch.schedules WHERE name = 'perm-created'")).isZero();
    }

    @Test
    void anActorWithNoConsoleRoleIsRefusedEverything() {
        Actor nobody = Actor.of("perm-nobody-" + UUID.randomUUID());
        everyAction().forEach((action, attempt) ->
                assertThat(catchThrowable(() -> attempt.accept(nobody))).as(action.name()).isInstanceOf(ActionRefused.class)
                        .hasMessageContaining("has no console role"));
        assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE actor = ? AND outcome = 'refused'", nobody.name()))
                .isEqualTo(OperatorAction.offered().size());
    }
}
