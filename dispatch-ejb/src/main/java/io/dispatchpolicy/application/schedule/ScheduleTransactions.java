package io.dispatchpolicy.application.schedule;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.application.TickSignal;
import io.dispatchpolicy.domain.schedule.Chain;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.infrastructure.persistence.OccurrenceRepository;
import io.dispatchpolicy.infrastructure.persistence.PartitionRepository;
import io.dispatchpolicy.infrastructure.persistence.ScheduleRepository;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Each change to a schedule in a transaction of its own (ADR 0012). A change that ends the live future
 * occurrence locks that occurrence's partition, then the schedule's row, then ends the occurrence and
 * deletes its staged row: the lock order of admission, which chains under the partition's lock. A new
 * future is staged afterwards by {@link #ensure}, in its own transaction, once the change is committed.
 */
// A singleton with bean-managed concurrency (it holds no state): the maintenance loop's watchdog names it
// in @DependsOn (through the beans between), so it stops only after the loop has.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ScheduleTransactions {

    static final String SKIPPED = "skipped";
    static final String SUPERSEDED = "superseded";

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

    /** A new schedule. @return its id; empty when the name is taken */
    public Optional<Long> insert(ScheduleDefinition d, String source, String declaredHash, String user) {
        return schedules.insert(d, source, declaredHash, user);
    }

    /**
     * Replaces a schedule's definition. When what or when an occurrence runs changes, or it is disabled,
     * its live future is superseded first and the version raised.
     */
    public void change(long id, ScheduleDefinition d, String declaredHash, String user) {
        StoredSchedule s = locked(id);
        boolean newVersion = s.definition().differsInOccurrence(d);
        if (newVersion || s.enabled() && !d.enabled()) {
            s = endFuture(id, SUPERSEDED, newVersion ? "edited" : "disabled");
        }
        schedules.update(s.id(), d, newVersion, declaredHash, user);
    }

    /** @return whether the flag changed */
    public boolean setEnabled(long id, boolean enabled, String user) {
        StoredSchedule s = enabled ? locked(id) : endFuture(id, SUPERSEDED, "disabled");
        return schedules.setEnabled(s.id(), enabled, user);
    }

    /** Deletes the schedule and its live future; its past occurrences stay, for history. */
    public void delete(long id) {
        endFuture(id, SUPERSEDED, "deleted");
        schedules.delete(id);
    }

    /** Skips the live future and stages the next grid point after it. @return the skipped run time */
    public Optional<Instant> skipNext(long id, String user) {
        Optional<OccurrenceRepository.Live> live = occurrences.live(id);
        StoredSchedule s = endFuture(id, SKIPPED, "operator: " + user);
        if (live.isEmpty() || !s.enabled()) {
            return Optional.empty();
        }
        Instant skipped = live.get().runAt();
        stageFirst(s, skipped);
        return Optional.of(skipped);
    }

    /** An extra occurrence due now, outside the grid (it never chains). @return its submission id */
    public long runNow(long id) {
        StoredSchedule s = schedules.keyShare(id).orElseThrow(() -> unknown(id));
        long submission = staging.stage(s, OccurrenceStaging.EXTRA, schedules.now(), 0, placement(s))
                .orElseThrow(() -> new IllegalStateException("an extra occurrence is never refused"));
        signal.workArrivesOnCommit();
        return submission;
    }

    /**
     * Stages the schedule's next grid occurrence unless it is disabled or has its live future; futures
     * whose staged rows are gone (an operator drained them) are marked skipped first, extra runs too.
     *
     * @return whether it staged one
     */
    public boolean ensure(long id) {
        // the schedule held against edits first: the new row's foreign key needs its current version
        Optional<StoredSchedule> found = schedules.keyShare(id);
        if (found.isEmpty()) {
            return false;
        }
        occurrences.endDrained(id);
        if (!found.get().enabled() || occurrences.live(id).isPresent()) {
            return false;
        }
        return stageFirst(found.get(), null);
    }

    /** The first grid point after now, after the last run or skip of this version, and after {@code after}. */
    private boolean stageFirst(StoredSchedule s, Instant after) {
        Instant now = schedules.now();
        Instant last = occurrences.lastGridRun(s.id(), s.version()).orElse(null);
        if (after != null && (last == null || after.isAfter(last))) {
            last = after;
        }
        Instant runAt = Chain.first(s.definition().grid(), last, now).runAt();
        return staging.stage(s, OccurrenceStaging.GRID, runAt, 0, placement(s)).isPresent();
    }

    /**
     * Ends the live future occurrence (if any) as {@code state} with {@code reason}, and returns the
     * schedule locked. The partition is locked before the schedule; if admission replaced the future
     * in between (chaining stages the next one in the same partition), the new one is ended instead.
     */
    private StoredSchedule endFuture(long id, String state, String reason) {
        Optional<OccurrenceRepository.Live> before = occurrences.live(id);
        Long partition = before.map(OccurrenceRepository.Live::partitionId).orElse(null);
        if (partition != null) {
            partitions.lockWaiting(partition);
        }
        StoredSchedule s = locked(id);
        Optional<OccurrenceRepository.Live> live = occurrences.live(id);
        if (live.isEmpty()) {
            return s;
        }
        Long now = live.get().partitionId();
        if (now != null && !Objects.equals(now, partition)) {
            // staged elsewhere meanwhile: locking that partition now would invert the lock order
            throw new ScheduleActionRefused("Schedule '" + s.name() + "' changed while this action ran: try again");
        }
        if (now != null) {
            staged.remove(live.get().submissionId());
        }
        occurrences.end(live.get().submissionId(), state, reason);
        return s;
    }

    private StoredSchedule locked(long id) {
        return schedules.lock(id).orElseThrow(() -> unknown(id));
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
