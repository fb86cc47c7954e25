package io.dispatchpolicy.console.schedule;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;

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
    Audited audited;

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

    @Inject
    io.dispatchpolicy.schedule.ScheduleRegistry registry;

    @Inject
    io.dispatchpolicy.schedule.ScheduleGrids grids;

    @Inject
    io.dispatchpolicy.schedule.CalendarRepository calendars;

    @Override
    public List<CalendarSummary> calendars() {
        List<CalendarSummary> all = new ArrayList<>();
        for (io.dispatchpolicy.domain.schedule.StoredCalendar c : calendars.all()) {
            all.add(new CalendarSummary(c.name(), c.source(), c.calendar().text(), calendars.usedByNames(c.name())));
        }
        return all;
    }

    @Override
    public void saveCalendar(String name, java.util.Map<String, String> fields, Actor actor) {
        audited.act(actor, OperatorAction.CALENDAR_SAVE, String.valueOf(name),
                () -> calendars.named(name).map(c -> String.valueOf(c.calendar().text())).orElse(null), () -> {
            io.dispatchpolicy.domain.schedule.ExclusionCalendar c = io.dispatchpolicy.domain.schedule.ExclusionCalendar.parse(name, fields);
            calendars.named(name).filter(stored -> !stored.created()).ifPresent(stored -> {
                throw new ScheduleActionRefused("Calendar '" + name + "' is declared in "
                        + (StoredSchedule.CODE.equals(stored.source()) ? "code (a CDI producer of io.dispatchpolicy.spi.Calendar)"
                        : "standalone.xml (dispatch.calendar." + name + ".*)") + ": it is changed there, not in the console");
            });
            List<Long> users = tx.putCalendar(c, StoredSchedule.CONSOLE, null, actor.name());
            LOG.info(() -> "Calendar '" + name + "' saved by " + actor.name() + "; " + users.size() + " schedule(s) naming it restaged");
            for (long id : users) {
                tx.restage(id, "calendar changed");
            }
            return c.text();
        }, String::valueOf);
    }

    @Override
    public void deleteCalendar(String name, Actor actor) {
        audited.act(actor, OperatorAction.CALENDAR_DELETE, String.valueOf(name), () -> {
            io.dispatchpolicy.domain.schedule.StoredCalendar c = calendars.named(name)
                    .orElseThrow(() -> new ScheduleActionRefused("No calendar named '" + name + "'"));
            if (!c.created()) {
                throw new ScheduleActionRefused("Calendar '" + name + "' is declared in " + c.source() + ": it is removed there");
            }
            tx.deleteCalendar(name);
            return "deleted";
        }, done -> done);
    }

    @Override
    public Optional<String> declarationProblem() {
        try {
            registry.declared(); // reads and checks this node's settings as the watchdog's next pass will
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

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
    public void create(ScheduleDefinition definition, Actor actor) {
        create(definition, StoredSchedule.CONSOLE, actor);
    }

    @Override
    public boolean create(ScheduleDefinition definition, String source, Actor actor) {
        String name = definition == null ? "" : String.valueOf(definition.name());
        return audited.act(actor, OperatorAction.SCHEDULE_CREATE, name, () -> {
            String user = actor.name();
            // a console-created schedule runs as whoever created it (ADR 0024); the application's as it says, as code's
            ScheduleDefinition d = (StoredSchedule.CONSOLE.equals(source) ? definition.runningAs(user) : definition).validate();
            staging.checked(d); // refused here, with the submission's reason, rather than at its first run
            Optional<Long> id = tx.insert(d, source, null, user);
            if (id.isEmpty()) {
                StoredSchedule there = schedules.named(d.name()).orElse(null);
                if (StoredSchedule.API.equals(source) && there != null && StoredSchedule.API.equals(there.source())) {
                    return false; // the application's create is idempotent by name: the one there is left as it is
                }
                throw new ScheduleActionRefused("A schedule named '" + d.name() + "' exists already"
                        + (there == null || there.source().equals(source) ? "" : ", from " + StoredSchedule.changedIn(d.name(), there.source())));
            }
            LOG.info(() -> "Schedule '" + d.name() + "' created by " + user);
            tx.ensure(id.get());
            return true;
        }, String::valueOf);
    }

    @Override
    public void edit(String name, ScheduleDefinition definition, String source, Actor actor) {
        audited.act(actor, OperatorAction.SCHEDULE_EDIT, name, () -> definitionOf(name), () -> {
            String user = actor.name();
            StoredSchedule s = ownedBy(name, source, "edited");
            // it keeps running as whoever created it, whoever edits it (the editor is in the audit log)
            ScheduleDefinition d = (StoredSchedule.CONSOLE.equals(source) ? definition.runningAs(s.definition().runAs()) : definition)
                    .validate();
            if (!d.name().equals(name)) {
                throw new ScheduleActionRefused("A schedule keeps its name (was '" + name + "', the form says '" + d.name() + "')");
            }
            staging.checked(d);
            tx.change(s.id(), d, null, user);
            LOG.info(() -> "Schedule '" + name + "' edited by " + user);
            tx.ensure(s.id());
            return d;
        }, String::valueOf);
    }

    @Override
    public void delete(String name, String source, Actor actor) {
        audited.act(actor, OperatorAction.SCHEDULE_DELETE, name, () -> definitionOf(name), () -> {
            StoredSchedule s = ownedBy(name, source, "deleted");
            tx.delete(s.id());
            LOG.info(() -> "Schedule '" + name + "' deleted by " + actor.name() + "; its past executions stay");
            return "deleted";
        }, done -> done);
    }

    @Override
    public boolean enable(String name, Actor actor) {
        return audited.act(actor, OperatorAction.SCHEDULE_ENABLE, name, () -> enabledOf(name), () -> {
            StoredSchedule s = existing(name);
            boolean changed = tx.setEnabled(s.id(), true, actor.name());
            boolean staged = tx.ensure(s.id());
            if (changed) {
                LOG.info(() -> "Schedule '" + name + "' enabled by " + actor.name());
            }
            return staged;
        }, staged -> "enabled" + (staged ? ", next occurrence staged" : ""));
    }

    @Override
    public boolean disable(String name, Actor actor) {
        return audited.act(actor, OperatorAction.SCHEDULE_DISABLE, name, () -> enabledOf(name), () -> {
            StoredSchedule s = existing(name);
            boolean changed = tx.setEnabled(s.id(), false, actor.name());
            if (changed) {
                LOG.info(() -> "Schedule '" + name + "' disabled by " + actor.name());
            }
            return changed;
        }, changed -> "disabled");
    }

    @Override
    public Optional<Instant> skipNext(String name, Actor actor) {
        return audited.act(actor, OperatorAction.SCHEDULE_SKIP, name, () -> {
            StoredSchedule s = existing(name);
            Optional<Instant> skipped = tx.skipNext(s.id(), actor.name());
            skipped.ifPresent(t -> LOG.info(() -> "Schedule '" + name + "': the run at " + t + " skipped by " + actor.name()));
            return skipped;
        }, skipped -> skipped.map(t -> "skipped the run at " + t).orElse("no run to skip"));
    }

    @Override
    public long runNow(String name, Actor actor) {
        return audited.act(actor, OperatorAction.SCHEDULE_RUN_NOW, name, () -> {
            StoredSchedule s = existing(name);
            long id = tx.runNow(s.id());
            LOG.info(() -> "Schedule '" + name + "': an extra run (submission " + id + ") started by " + actor.name());
            return id;
        }, id -> "extra run: job " + id);
    }

    private String definitionOf(String name) {
        return schedules.named(name).map(s -> String.valueOf(s.definition())).orElse(null);
    }

    private String enabledOf(String name) {
        return schedules.named(name).map(s -> s.definition().enabled() ? "enabled" : "disabled").orElse(null);
    }

    @Override
    public List<Instant> nextRunTimes(String name, Instant after, int n) {
        if (n < 0) {
            throw new ScheduleActionRefused("n must not be negative (was " + n + ")");
        }
        StoredSchedule s = existing(name);
        if (s.definition().isFixedDelay()) {
            // no grid: only its staged future is known (the one after it is counted from an end yet to come)
            return occurrences.live(s.id()).map(LiveOccurrence::runAt).filter(after::isBefore).stream().limit(n).toList();
        }
        return grids.of(s.definition()).nextRunTimes(after, n);
    }

    @Override
    public boolean start(String name) {
        return tx.ensure(existing(name).id());
    }

    private ScheduleSummary summary(StoredSchedule s) {
        ScheduleDefinition d = s.definition();
        List<Instant> next = List.of();
        if (d.enabled() && d.isFixedDelay()) {
            // its next run is known once the last one has ended: the staged future, if any
            next = occurrences.live(s.id()).map(l -> List.of(l.runAt())).orElse(List.of());
        } else if (d.enabled()) {
            Optional<LiveOccurrence> live = occurrences.live(s.id());
            Grid grid = grids.of(d);
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
            return "cron " + d.cron() + less(d);
        }
        if (d.isFixedDelay()) {
            return d.delay().toSeconds() + " s after each run ended" + less(d);
        }
        String unit = d.unit().name().toLowerCase(java.util.Locale.ROOT);
        return "every " + d.intervalCount() + " " + (d.intervalCount() == 1 ? unit.substring(0, unit.length() - 1) : unit)
                + " from " + d.anchor() + less(d);
    }

    private static String less(ScheduleDefinition d) {
        return d.calendar() == null ? "" : ", less calendar " + d.calendar() + " (" + d.excluded().label() + ")";
    }

    private StoredSchedule existing(String name) {
        return schedules.named(name).orElseThrow(() -> new ScheduleActionRefused("No schedule named '" + name + "'"));
    }

    /** The schedule, when it was created where it is now changed ({@code source}: console or api); refused otherwise. */
    private StoredSchedule ownedBy(String name, String source, String action) {
        StoredSchedule s = existing(name);
        if (!source.equals(s.source())) {
            String where = StoredSchedule.CONSOLE.equals(source) ? "in the console" : "through DispatchSchedules";
            throw new ScheduleActionRefused("Schedule '" + name + "' is " + (s.created() ? "created by " : "declared in ")
                    + (StoredSchedule.CODE.equals(s.source()) ? "code (a CDI producer)" : StoredSchedule.changedIn(name, s.source()))
                    + ": it is " + action + " there, not " + where);
        }
        return s;
    }

    @Override
    public List<ScheduleDefinition> definitions(String prefix) {
        List<ScheduleDefinition> found = new ArrayList<>();
        for (StoredSchedule s : schedules.all()) {
            if (s.name().startsWith(prefix)) {
                found.add(s.definition());
            }
        }
        return found;
    }
}
