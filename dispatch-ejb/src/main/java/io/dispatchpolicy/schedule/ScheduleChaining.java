package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.model.LockedPartition;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.domain.schedule.Chain;
import io.dispatchpolicy.domain.schedule.NextOccurrence;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.spi.JobsAdmitting;
import io.dispatchpolicy.staging.DiscardedJobs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Chaining (ADR 0012): inside the admission transaction that takes a schedule's occurrence, the
 * occurrence becomes admitted and the schedule's next one is staged, in the partition already locked.
 * The next occurrence exists exactly when its predecessor was admitted: a crash rolls back both.
 */
@ApplicationScoped
public class ScheduleChaining {

    private static final Logger LOG = Logger.getLogger(ScheduleChaining.class.getName());

    /** An occurrence's reason when it expired unadmitted (ADR 0036). */
    public static final String EXPIRED = "expired";

    @Inject
    OccurrenceRepository occurrences;

    @Inject
    ScheduleRepository schedules;

    @Inject
    OccurrenceStaging staging;

    @Inject
    io.dispatchpolicy.partition.PartitionRepository partitions;

    @Inject
    ScheduleGrids grids;

    /**
     * @param jobs     the jobs the admission took
     * @param admitted their executions, in the same order
     */
    public void admitted(LockedPartition locked, List<StagedJob> jobs, List<JobsAdmitting.Admitted> admitted) {
        if (!anyOccurrence(jobs)) {
            return; // every ordinary admission: one null test per job
        }
        List<Long> ids = new ArrayList<>();
        List<Long> executions = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).scheduleId() != null) {
                ids.add(jobs.get(i).submissionId());
                executions.add(admitted.get(i).executionId());
            }
        }
        Instant now = Instant.ofEpochMilli(locked.nowMillis());
        for (OccurrenceRepository.Taken t : occurrences.admitted(ids, executions)) {
            // a fixed-delay schedule's next is staged when this one's job has ended for good (ended), not now
            if (OccurrenceStaging.GRID.equals(t.occurrence().kind()) && !t.awaitsEnd()) {
                next(locked, t.occurrence(), now);
            }
        }
    }

    /**
     * What followed a fixed-delay occurrence's end.
     *
     * @param staged the next occurrence's submission; null when none was staged here
     * @param detail what happened, for the follower row and the log
     */
    public record AfterEnd(Long staged, String detail) {
    }

    /**
     * A fixed-delay schedule's occurrence has ended for good (ADR 0054): called by the end hook in the transaction that
     * records the end, so the next run exists exactly when the end does. The next is due the schedule's delay from now,
     * under its current definition, while it is enabled and still in fixed-delay mode; a live future (staged by an
     * edit or enable meanwhile) stays the one. Locks as a schedule action does (ADR 0012): the partition it stages in,
     * then the schedule's row. When the schedule changed version since the occurrence was staged (it may stage
     * elsewhere now), or its job would be refused, the schedule watchdog stages the next, at the same time.
     */
    public AfterEnd ended(long submissionId) {
        Optional<Long> scheduleId = occurrences.endRun(submissionId);
        if (scheduleId.isEmpty()) {
            return new AfterEnd(null, "already settled");
        }
        Optional<StoredSchedule> seen = schedules.byId(scheduleId.get());
        if (seen.isEmpty() || !seen.get().enabled() || !seen.get().definition().isFixedDelay()) {
            return new AfterEnd(null, seen.isEmpty() ? "schedule deleted" : !seen.get().enabled() ? "schedule disabled"
                    : "schedule no longer runs after each end");
        }
        OccurrenceRepository.Placement p;
        try {
            p = staging.placement(seen.get().definition());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "Schedule '" + seen.get().name() + "': its next run cannot be staged (" + e.getMessage()
                    + "); the schedule watchdog tries again on its next pass");
            return new AfterEnd(null, "refused: " + e.getMessage());
        }
        partitions.lockForSchedule(null, p.policyName(), p.partitionKey(), p.lane());
        Optional<StoredSchedule> s = schedules.keyShare(scheduleId.get());
        if (s.isEmpty() || s.get().version() != seen.get().version() || !s.get().enabled()) {
            return new AfterEnd(null, "schedule changed meanwhile: the watchdog stages its next run");
        }
        Instant runAt;
        try {
            runAt = grids.fixedDelayRun(s.get().definition(), schedules.now().plus(s.get().definition().delay()));
        } catch (ScheduleActionRefused e) {
            // never fail the transaction recording the job's end for it: the watchdog tries again on its next pass
            return new AfterEnd(null, "refused: " + e.getMessage());
        }
        Optional<Long> staged = staging.stage(s.get(), OccurrenceStaging.GRID, runAt, 0, p);
        LOG.fine(() -> "Schedule '" + s.get().name() + "': run " + submissionId + " ended; the next is due at " + runAt);
        return staged.map(id -> new AfterEnd(id, "next run due at " + runAt))
                .orElseGet(() -> new AfterEnd(null, "a future run was already staged"));
    }

    /**
     * The jobs to run: all but the grid occurrences of schedules without catch-up whose next grid point
     * has come too (taken late: after an outage, or held back by their gates). Those are skipped
     * ("missed") and the schedule moves on to its first point after now, so a schedule without catch-up
     * never runs late work twice over; its skipped times show in the console.
     */
    public List<StagedJob> withoutMissed(LockedPartition locked, List<StagedJob> jobs) {
        if (!anyOccurrence(jobs)) {
            return jobs; // every ordinary admission
        }
        Instant now = Instant.ofEpochMilli(locked.nowMillis());
        List<StagedJob> run = new ArrayList<>(jobs.size());
        for (StagedJob job : jobs) {
            if (job.scheduleId() == null || !skippedAsMissed(locked, job, now)) {
                run.add(job);
            }
        }
        return run;
    }

    private static boolean anyOccurrence(List<StagedJob> jobs) {
        for (StagedJob job : jobs) {
            if (job.scheduleId() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Occurrences among the jobs an admission took past their deadline (recorded EXPIRED by the admission, ADR 0036):
     * each is ended {@code skipped}/{@code expired} and its schedule's next one staged, as for a missed one.
     */
    public void expired(LockedPartition locked, List<StagedJob> expired) {
        if (!anyOccurrence(expired)) {
            return;
        }
        Instant now = Instant.ofEpochMilli(locked.nowMillis());
        for (StagedJob job : expired) {
            if (job.scheduleId() == null) {
                continue;
            }
            Optional<OccurrenceRepository.Admitted> found = occurrences.future(job.submissionId());
            if (found.isPresent() && occurrences.end(job.submissionId(), ScheduleTransactions.SKIPPED, EXPIRED)) {
                expiredThenNext(Held.of(locked), found.get(), now);
            }
        }
    }

    /**
     * Occurrences the tick expired ({@code DiscardedJobs#expireDue}, which ended them {@code skipped}/{@code expired})
     * in partitions its transaction holds: each schedule's next one is staged.
     */
    public void expiredByTick(List<DiscardedJobs.ExpiredOccurrence> expired) {
        for (DiscardedJobs.ExpiredOccurrence e : expired) {
            // The tick holds only the partition row the occurrence was staged in. In a lane, staging the next one
            // would lock the policy's gate row after it, against the lock order (gate row first): the schedule
            // watchdog stages that one instead, on its next pass.
            Held held = e.lane().isEmpty() ? new Held(e.policyName(), e.partitionKey(), e.lane()) : null;
            expiredThenNext(held, new OccurrenceRepository.Admitted(e.scheduleId(), e.kind(), e.runAt(), e.overdueSeq(), e.version()),
                    e.now());
        }
    }

    private void expiredThenNext(Held held, OccurrenceRepository.Admitted o, Instant now) {
        Optional<StoredSchedule> s = current(o);
        LOG.info(() -> "Schedule '" + s.map(StoredSchedule::name).orElse("#" + o.scheduleId()) + "': the run due at " + o.runAt()
                + " expired, not admitted by its deadline" + (!OccurrenceStaging.GRID.equals(o.kind()) ? ""
                : held != null ? "; the next is staged" : "; the schedule watchdog stages the next"));
        if (OccurrenceStaging.GRID.equals(o.kind()) && held != null) {
            s.ifPresent(schedule -> stageNext(held, schedule, o, now));
        }
    }

    /** The partition a transaction holds, where a schedule's next occurrence may be staged at once. */
    private record Held(String policyName, String partitionKey, String lane) {
        static Held of(LockedPartition locked) {
            return new Held(locked.policyName(), locked.partitionKey(), locked.lane());
        }
    }

    private boolean skippedAsMissed(LockedPartition locked, StagedJob job, Instant now) {
        Optional<OccurrenceRepository.Admitted> found = occurrences.future(job.submissionId());
        if (found.isEmpty() || !OccurrenceStaging.GRID.equals(found.get().kind())) {
            return false;
        }
        OccurrenceRepository.Admitted o = found.get();
        Optional<StoredSchedule> s = current(o);
        // a fixed-delay schedule has no grid to fall behind: its run is late only by the gates that held it
        if (s.isEmpty() || s.get().definition().isFixedDelay() || s.get().definition().catchUp()
                || grids.of(s.get().definition()).firstAfter(o.runAt()).isAfter(now)) {
            return false;
        }
        occurrences.end(job.submissionId(), ScheduleTransactions.SKIPPED, "missed");
        LOG.info(() -> "Schedule '" + s.get().name() + "': the run due at " + o.runAt() + " is skipped, its next run time having "
                + "passed too (no catch-up)");
        stageNext(Held.of(locked), s.get(), o, now);
        return true;
    }

    private void next(LockedPartition locked, OccurrenceRepository.Admitted a, Instant now) {
        current(a).ifPresent(s -> stageNext(Held.of(locked), s, a, now));
    }

    /**
     * The occurrence's schedule, held against edits until this transaction ends (the lock the next
     * occurrence's foreign key takes anyway: an editor holding the row is waited for), while it is
     * enabled at the occurrence's version; a schedule an editor changed gets its future from that edit.
     */
    private Optional<StoredSchedule> current(OccurrenceRepository.Admitted o) {
        return schedules.keyShare(o.scheduleId()).filter(s -> s.enabled() && s.version() == o.version());
    }

    /** Stages the occurrence after {@code previous} in the partition this admission holds. */
    private void stageNext(Held locked, StoredSchedule s, OccurrenceRepository.Admitted previous, Instant now) {
        OccurrenceRepository.Placement p;
        try {
            p = staging.placement(s.definition());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "Schedule '" + s.name() + "': its next occurrence cannot be staged (" + e.getMessage()
                    + "); the schedule watchdog tries again on its next pass");
            return;
        }
        if (!p.policyName().equals(locked.policyName()) || !p.partitionKey().equals(locked.partitionKey())
                || !p.lane().equals(locked.lane())) {
            // another partition: locking it here could deadlock against its own admission
            LOG.info(() -> "Schedule '" + s.name() + "': its next occurrence belongs to another partition than this one ("
                    + p.partitionKey() + "/" + p.lane() + "); the schedule watchdog stages it");
            return;
        }
        NextOccurrence next;
        try {
            if (s.definition().isFixedDelay()) {
                // an expired fixed-delay run ended without running: the next is due a delay after that end, now
                staging.stage(s, OccurrenceStaging.GRID, grids.fixedDelayRun(s.definition(), now.plus(s.definition().delay())), 0, p);
                return;
            }
            next = Chain.next(grids.of(s.definition()), previous.runAt(), s.definition().catchUp(), now, previous.overdueSeq(),
                    p.deadlineMillis() == null ? null : java.time.Duration.ofMillis(p.deadlineMillis()));
        } catch (IllegalStateException | ScheduleActionRefused e) {
            // no run time left (a cron that stopped matching, a calendar excluding everything): never fail the
            // admission that holds this partition for it; the watchdog's pass reports it on the schedule
            LOG.warning(() -> "Schedule '" + s.name() + "': no next run time (" + e.getMessage() + "); the schedule watchdog tries "
                    + "again on its next pass");
            return;
        }
        next.cut().ifPresent(cut -> {
            if (cut.why() == NextOccurrence.Cut.Why.PAST_DEADLINE) {
                LOG.warning(() -> "Schedule '" + s.name() + "': " + cut.skippedText() + " missed runs are skipped, their deadline "
                        + "having passed too, the runs from " + cut.from() + " to " + cut.to() + "; it catches up from " + next.runAt());
            } else {
                LOG.warning(() -> "Schedule '" + s.name() + "': " + Chain.CATCH_UP_LIMIT + " missed runs caught up (the limit); "
                        + cut.skippedText() + " more are skipped, the runs from " + cut.from() + " to " + cut.to()
                        + ", and it resumes at " + next.runAt());
            }
            schedules.recordCut(s.id(), cut.from(), cut.to());
        });
        staging.stage(s, OccurrenceStaging.GRID, next.runAt(), next.overdueSeq(), p);
    }
}
