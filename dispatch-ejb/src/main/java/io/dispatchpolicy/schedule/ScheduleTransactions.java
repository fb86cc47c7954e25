package io.dispatchpolicy.schedule;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.domain.schedule.Chain;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Each change to a schedule in a transaction of its own (ADR 0012). Every action takes its locks in
 * one place, {@link #hold}: the partitions of the schedule's live future and of where it stages, then
 * the schedule's row — the order of admission, which chains under the partition's lock. A new future
 * is staged afterwards by {@link #ensure}, in its own transaction, once the change is committed.
 */
// A singleton with bean-managed concurrency (it holds no state): the maintenance loop's watchdog names it
// in @DependsOn (through the beans between), so it stops only after the loop has.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ScheduleTransactions {

    public static final String SKIPPED = "skipped";
    public static final String SUPERSEDED = "superseded";

    @Inject
    ScheduleRepository schedules;

    @Inject
    OccurrenceRepository occurrences;

    @Inject
    OccurrenceStaging staging;

    @Inject
    PartitionRepository partitions;

    @Inject
    StagingRepository staged;

    @Inject
    TickSignal signal;

    @Inject
    ScheduleGrids grids;

    @Inject
    CalendarRepository calendars;

    /**
     * Writes a calendar, new or changed (ADR 0053), unless a schedule naming it would have no run time left under it.
     * The caller restages the futures of the schedules naming it ({@link #restage}), each in its own transaction, once
     * this one is committed.
     *
     * @return the ids of the schedules naming it; empty for a new calendar
     * @throws ScheduleActionRefused when the name is another source's, or a schedule would never run
     */
    public List<Long> putCalendar(io.dispatchpolicy.domain.schedule.ExclusionCalendar c, String source, String hash, String user) {
        calendars.lock(c.name());
        List<Long> users = calendars.usedBy(c.name());
        Instant now = schedules.now();
        List<String> never = new java.util.ArrayList<>();
        for (long id : users) {
            schedules.byId(id).filter(s -> !ScheduleGrids.runsUnder(s.definition(), c, now)).ifPresent(s -> never.add(s.name()));
        }
        if (!never.isEmpty()) {
            throw new ScheduleActionRefused("Calendar '" + c.name() + "' would exclude every run time for ten years of schedule(s) "
                    + String.join(", ", never) + ": nothing of theirs would ever run");
        }
        if (!calendars.put(c, source, hash, user)) {
            String other = calendars.named(c.name()).map(io.dispatchpolicy.domain.schedule.StoredCalendar::source).orElse("?");
            throw new ScheduleActionRefused("A calendar named '" + c.name() + "' exists already, "
                    + (io.dispatchpolicy.domain.schedule.StoredSchedule.CONSOLE.equals(other) ? "created in the console"
                    : "declared in " + (io.dispatchpolicy.domain.schedule.StoredSchedule.CODE.equals(other) ? "code" : "standalone.xml")));
        }
        return users;
    }

    /** Deletes a calendar no schedule names. @throws ScheduleActionRefused naming the schedules that name it */
    public void deleteCalendar(String name) {
        calendars.lock(name).orElseThrow(() -> new ScheduleActionRefused("No calendar named '" + name + "'"));
        List<String> users = calendars.usedByNames(name);
        if (!users.isEmpty() || !calendars.delete(name)) {
            throw new ScheduleActionRefused("Calendar '" + name + "' is named by schedule(s) " + String.join(", ", users)
                    + ": change them first");
        }
    }

    /**
     * The schedule's calendar changed (ADR 0053): its live future, planned under the old calendar, is superseded and the
     * first run time the new one allows is staged (after the last run of this version, as an edit would).
     *
     * @return whether a future was staged
     */
    public boolean restage(long id, String reason) {
        Held h = hold(id, true, (s, live) -> s.enabled()).orRefuse();
        endFuture(h, SUPERSEDED, reason);
        if (!h.schedule().enabled() || occurrences.running(id).isPresent()) {
            return false;
        }
        return stageFirst(h, null);
    }

    /** A new schedule. @return its id; empty when the name is taken */
    public Optional<Long> insert(ScheduleDefinition d, String source, String declaredHash, String user) {
        return schedules.insert(d, source, declaredHash, user);
    }

    /**
     * Replaces a schedule's definition. When what or when an occurrence runs changes, or it is disabled,
     * its live future is superseded first and the version raised.
     */
    public void change(long id, ScheduleDefinition d, String declaredHash, String user) {
        Held h = hold(id, true, NOTHING).orRefuse();
        boolean newVersion = h.schedule().definition().differsInOccurrence(d);
        if (newVersion || h.schedule().enabled() && !d.enabled()) {
            endFuture(h, SUPERSEDED, newVersion ? "edited" : "disabled");
        }
        schedules.update(id, d, newVersion, declaredHash, user);
    }

    /** @return whether the flag changed */
    public boolean setEnabled(long id, boolean enabled, String user) {
        Held h = hold(id, true, NOTHING).orRefuse();
        if (!enabled) {
            endFuture(h, SUPERSEDED, "disabled");
        }
        return schedules.setEnabled(id, enabled, user);
    }

    /** Deletes the schedule and its live future; its past occurrences stay, for history. */
    public void delete(long id) {
        endFuture(hold(id, true, NOTHING).orRefuse(), SUPERSEDED, "deleted");
        schedules.delete(id);
    }

    /** Skips the live future and stages the next grid point after it. @return the skipped run time */
    public Optional<Instant> skipNext(long id, String user) {
        Held h = hold(id, true, ALWAYS).orRefuse();
        endFuture(h, SKIPPED, "operator: " + user);
        if (h.live().isEmpty() || !h.schedule().enabled()) {
            return Optional.empty();
        }
        Instant skipped = h.live().get().runAt();
        stageFirst(h, skipped);
        return Optional.of(skipped);
    }

    /**
     * An extra occurrence due now, outside the grid (it never chains). @return its submission id
     *
     * <p>A fixed-delay schedule never runs twice at once (ADR 0054): run now makes its staged future due now, and is
     * refused while a run has not ended.
     */
    public long runNow(long id) {
        Held h = hold(id, false, ALWAYS).orRefuse();
        if (h.schedule().definition().isFixedDelay()) {
            occurrences.endGone(id);
            Optional<Long> running = occurrences.running(id);
            if (running.isPresent()) {
                throw new ScheduleActionRefused("Schedule '" + h.schedule().name() + "' runs a delay after each end and its run "
                        + running.get() + " has not ended yet: it never runs twice at once");
            }
            if (h.live().isPresent() && h.live().get().partitionId() != null) {
                occurrences.dueNow(h.live().get().submissionId());
                signal.workArrivesOnCommit();
                return h.live().get().submissionId();
            }
        }
        long submission = staging.stage(h.schedule(), OccurrenceStaging.EXTRA, schedules.now(), 0, h.placement())
                .orElseThrow(() -> new IllegalStateException("an extra occurrence is never refused"));
        signal.workArrivesOnCommit();
        return submission;
    }

    /**
     * Stages the schedule's next grid occurrence unless it is disabled or has its live future; futures
     * whose staged rows are gone (an operator drained them) are marked skipped first, extra runs too.
     *
     * @return whether it staged one; false too when an action changed the schedule meanwhile (that
     *         action's own {@code ensure} stages its future)
     */
    public boolean ensure(long id) {
        if (schedules.byId(id).isEmpty()) {
            return false;
        }
        // a placement is worked out (and its partition locked) only when there may be a future to stage:
        // a disabled schedule, or one whose future waits staged, is left alone even if its job would be
        // refused now (a drained future, its staged row gone, is about to be ended below)
        Held h = hold(id, false, (s, live) -> s.enabled() && live.map(l -> l.partitionId() == null).orElse(true));
        occurrences.endDrained(id);
        occurrences.endGone(id);
        if (h.changed() || !h.schedule().enabled() || h.placement() == null || occurrences.live(id).isPresent()
                || occurrences.running(id).isPresent()) {
            return false;
        }
        return stageFirst(h, null);
    }

    /**
     * The first grid point after now, after the last run or skip of this version, and after {@code after}. For a
     * fixed-delay schedule: a delay after its last end (at once when none came yet, or that time has passed); after a
     * skip of the run due at {@code after}, a delay after the later of it and now.
     */
    private boolean stageFirst(Held h, Instant after) {
        StoredSchedule s = h.schedule();
        Instant now = schedules.now();
        if (s.definition().isFixedDelay()) {
            Instant from = after != null ? (after.isAfter(now) ? after : now).plus(s.definition().delay())
                    : occurrences.lastEnd(s.id()).map(end -> end.plus(s.definition().delay())).filter(now::isBefore).orElse(now);
            return staging.stage(s, OccurrenceStaging.GRID, grids.fixedDelayRun(s.definition(), from), 0, h.placement()).isPresent();
        }
        Instant last = occurrences.lastGridRun(s.id(), s.version()).orElse(null);
        if (after != null && (last == null || after.isAfter(last))) {
            last = after;
        }
        Instant runAt = Chain.first(grids.of(s.definition()), last, now).runAt();
        return staging.stage(s, OccurrenceStaging.GRID, runAt, 0, h.placement()).isPresent();
    }

    /**
     * A schedule held for an action, and what it found under its locks.
     *
     * @param schedule  the schedule as last committed, locked
     * @param live      its live future, read under the locks
     * @param placement where it stages now (its partition locked); null when the action stages nothing
     * @param changed   true when an action committed in between moved its future or its placement to a
     *                  partition this one did not lock: nothing may be done under these locks, only retried
     */
    private record Held(StoredSchedule schedule, Optional<LiveOccurrence> live, OccurrenceRepository.Placement placement,
                        boolean changed) {

        Held orRefuse() {
            if (changed) {
                throw new ScheduleActionRefused("Schedule '" + schedule.name() + "' changed while this action ran: try again");
            }
            return this;
        }
    }

    /**
     * ADR 0012's lock order, written once for every action on a schedule: first the partitions it
     * touches — the one its live future waits in, and the one it stages into when {@code stages} says it
     * does, judged on what it reads before locking — in
     * the partitions' lock order, then the schedule's row ({@code exclusive}: FOR UPDATE, to change it;
     * else FOR KEY SHARE, to stage under it). Admission holds a partition, then takes FOR KEY SHARE on the
     * schedule when it chains; an editor that held the schedule first and then waited for that partition
     * closed a cycle with it (issue 31: {@code deadlock detected} on an edit racing an admission).
     */
    private Held hold(long id, boolean exclusive, Stages stages) {
        StoredSchedule seen = schedules.byId(id).orElseThrow(() -> unknown(id));
        Optional<LiveOccurrence> seenLive = occurrences.live(id);
        Long before = seenLive.map(LiveOccurrence::partitionId).orElse(null);
        boolean staging = stages.given(seen, seenLive);
        OccurrenceRepository.Placement p = staging ? placement(seen) : null;
        List<Long> locked = p == null ? partitions.lockForSchedule(before, null, null, null)
                : partitions.lockForSchedule(before, p.policyName(), p.partitionKey(), p.lane());
        StoredSchedule s = (exclusive ? schedules.lock(id) : schedules.keyShare(id)).orElseThrow(() -> unknown(id));
        Optional<LiveOccurrence> live = occurrences.live(id);
        Long now = live.map(LiveOccurrence::partitionId).orElse(null);
        boolean moved = now != null && !locked.contains(now);
        boolean placedElsewhere = staging && s.version() != seen.version() && !samePartition(p, placement(s));
        return new Held(s, live, p, moved || placedElsewhere);
    }

    /** Whether an action stages an occurrence, given the schedule and its live future as read before locking. */
    @FunctionalInterface
    private interface Stages {
        boolean given(StoredSchedule schedule, Optional<LiveOccurrence> live);
    }

    private static final Stages NOTHING = (s, live) -> false;
    private static final Stages ALWAYS = (s, live) -> true;

    private static boolean samePartition(OccurrenceRepository.Placement a, OccurrenceRepository.Placement b) {
        return a.policyName().equals(b.policyName()) && a.partitionKey().equals(b.partitionKey()) && a.lane().equals(b.lane());
    }

    /** Ends the held schedule's live future (if any) as {@code state} with {@code reason}, its staged row deleted. */
    private void endFuture(Held h, String state, String reason) {
        if (h.live().isEmpty()) {
            return;
        }
        LiveOccurrence live = h.live().get();
        if (live.partitionId() != null) {
            staged.remove(live.submissionId());
        }
        occurrences.end(live.submissionId(), state, reason);
    }

    private static ScheduleActionRefused unknown(long id) {
        return new ScheduleActionRefused("No schedule with id " + id + " (deleted meanwhile?)");
    }

    /** Where the schedule's occurrences go; refused as a submission of its job would be. */
    private OccurrenceRepository.Placement placement(StoredSchedule s) {
        try {
            return staging.placement(s.definition());
        } catch (SubmissionRejectedException e) {
            throw new ScheduleActionRefused("Schedule '" + s.name() + "': its occurrences would be refused: " + e.getMessage(), e);
        }
    }
}
