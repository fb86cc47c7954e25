package io.dispatchpolicy.console.schedule;

import io.dispatchpolicy.domain.schedule.Grid;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.schedule.LiveOccurrence;
import io.dispatchpolicy.schedule.OccurrenceRepository;
import io.dispatchpolicy.schedule.OccurrenceStaging;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.schedule.ScheduleRepository;
import io.dispatchpolicy.schedule.ScheduleTransactions;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Schedule operations. Each change commits in a transaction of its own ({@link ScheduleTransactions}),
 * then the schedule's future occurrence is staged in another, so a definition's new partition is never
 * locked while an old one is held.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DefaultScheduleControl implements ScheduleControl {

    private static final Logger LOG = Logger.getLogger(DefaultScheduleControl.class.getName());
    /** Occurrences a schedule's page lists per section at most. */
    static final int PAGE = 50;

    @Inject
    ScheduleRepository schedules;

    @Inject
    OccurrenceRepository occurrences;

    @Inject
    OccurrenceViews views;

    @Inject
    ScheduleTransactions tx;

    @Inject
    OccurrenceStaging staging;

    @Override
    public List<ScheduleSummary> schedules() {
        List<ScheduleSummary> all = new ArrayList<>();
        for (StoredSchedule s : schedules.all()) {
            all.add(summary(s));
        }
        return all;
    }

    @Override
    public Optional<ScheduleDetail> schedule(String name) {
        return schedules.named(name).map(s -> {
            String cut = s.cutFrom() == null ? null : "missed runs from " + s.cutFrom() + " to " + s.cutTo()
                    + " were skipped (more than " + io.dispatchpolicy.domain.schedule.Chain.CATCH_UP_LIMIT + " to catch up)";
            return new ScheduleDetail(summary(s), s.definition(),
                    views.inStates(s.id(), List.of("future"), PAGE),
                    views.inStates(s.id(), List.of("admitted"), PAGE),
                    views.inStates(s.id(), List.of(ScheduleTransactions.SKIPPED, ScheduleTransactions.SUPERSEDED), PAGE),
                    cut);
        });
    }

    @Override
    public void create(ScheduleDefinition definition, String user) {
        ScheduleDefinition d = definition.validate();
        staging.checked(d); // refused here, with the submission's reason, rather than at its first run
        long id = tx.insert(d, StoredSchedule.CONSOLE, null, user)
                .orElseThrow(() -> new ScheduleActionRefused("A schedule named '" + d.name() + "' exists already"));
        LOG.info(() -> "Schedule '" + d.name() + "' created by " + user);
        tx.ensure(id);
    }

    @Override
    public void edit(String name, ScheduleDefinition definition, String user) {
        StoredSchedule s = consoleOwned(name, "edited");
        ScheduleDefinition d = definition.validate();
        if (!d.name().equals(name)) {
            throw new ScheduleActionRefused("A schedule keeps its name (was '" + name + "', the form says '" + d.name() + "')");
        }
        staging.checked(d);
        tx.change(s.id(), d, null, user);
        LOG.info(() -> "Schedule '" + name + "' edited by " + user);
        tx.ensure(s.id());
    }

    @Override
    public void delete(String name, String user) {
        StoredSchedule s = consoleOwned(name, "deleted");
        tx.delete(s.id());
        LOG.info(() -> "Schedule '" + name + "' deleted by " + user + "; its past executions stay");
    }

    @Override
    public boolean enable(String name, String user) {
        StoredSchedule s = existing(name);
        boolean changed = tx.setEnabled(s.id(), true, user);
        boolean staged = tx.ensure(s.id());
        if (changed) {
            LOG.info(() -> "Schedule '" + name + "' enabled by " + user);
        }
        return staged;
    }

    @Override
    public boolean disable(String name, String user) {
        StoredSchedule s = existing(name);
        boolean changed = tx.setEnabled(s.id(), false, user);
        if (changed) {
            LOG.info(() -> "Schedule '" + name + "' disabled by " + user);
        }
        return changed;
    }

    @Override
    public Optional<Instant> skipNext(String name, String user) {
        StoredSchedule s = existing(name);
        Optional<Instant> skipped = tx.skipNext(s.id(), user);
        skipped.ifPresent(t -> LOG.info(() -> "Schedule '" + name + "': the run at " + t + " skipped by " + user));
        return skipped;
    }

    @Override
    public long runNow(String name, String user) {
        StoredSchedule s = existing(name);
        long id = tx.runNow(s.id());
        LOG.info(() -> "Schedule '" + name + "': an extra run (submission " + id + ") started by " + user);
        return id;
    }

    @Override
    public List<Instant> nextRunTimes(String name, Instant after, int n) {
        if (n < 0) {
            throw new ScheduleActionRefused("n must not be negative (was " + n + ")");
        }
        return existing(name).definition().grid().nextRunTimes(after, n);
    }

    @Override
    public boolean start(String name) {
        return tx.ensure(existing(name).id());
    }

    private ScheduleSummary summary(StoredSchedule s) {
        ScheduleDefinition d = s.definition();
        List<Instant> next = List.of();
        if (d.enabled()) {
            Optional<LiveOccurrence> live = occurrences.live(s.id());
            Grid grid = d.grid();
            next = live.map(l -> {
                List<Instant> times = new ArrayList<>();
                times.add(l.runAt());
                times.addAll(grid.nextRunTimes(l.runAt(), 2));
                return times;
            }).orElseGet(() -> grid.nextRunTimes(schedules.now(), 3));
        }
        return new ScheduleSummary(s.name(), s.source(), d.jobName(), when(d), d.zone().getId(), d.enabled(), d.catchUp(), next,
                views.lastEnded(s.id()).orElse(null));
    }

    /** The grid in words. */
    static String when(ScheduleDefinition d) {
        if (d.isCron()) {
            return "cron " + d.cron();
        }
        String unit = d.unit().name().toLowerCase(java.util.Locale.ROOT);
        return "every " + d.intervalCount() + " " + (d.intervalCount() == 1 ? unit.substring(0, unit.length() - 1) : unit)
                + " from " + d.anchor();
    }

    private StoredSchedule existing(String name) {
        return schedules.named(name).orElseThrow(() -> new ScheduleActionRefused("No schedule named '" + name + "'"));
    }

    private StoredSchedule consoleOwned(String name, String action) {
        StoredSchedule s = existing(name);
        if (!StoredSchedule.CONSOLE.equals(s.source())) {
            throw new ScheduleActionRefused("Schedule '" + name + "' is declared in " + (StoredSchedule.CODE.equals(s.source())
                    ? "code (a CDI producer)" : "standalone.xml (dispatch.schedule." + name + ".*)")
                    + ": it is " + action + " there, not in the console");
        }
        return s;
    }
}
