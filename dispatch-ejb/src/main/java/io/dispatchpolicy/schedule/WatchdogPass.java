package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.StoredCalendar;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The two halves of a watchdog pass, each in a transaction that holds the watchdog's advisory lock (one
 * node at a time); every change they make commits in a transaction of its own
 * ({@link ScheduleTransactions}), so one schedule's failure leaves the others converged.
 */
// A singleton with bean-managed concurrency (it holds no state): the maintenance loop's watchdog names it
// in @DependsOn (through the beans between), so it stops only after the loop has.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@DependsOn("ScheduleTransactions")
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class WatchdogPass {

    private static final Logger LOG = Logger.getLogger(WatchdogPass.class.getName());
    static final String DECLARATION = "declaration";

    @Inject
    ScheduleRepository schedules;

    @Inject
    ScheduleTransactions tx;

    @Inject
    CalendarRepository storedCalendars;

    /**
     * Applies the declarations: new ones are inserted, changed ones replace the stored definition (and
     * its enabled flag), vanished ones are disabled and kept. A declaration that did not change leaves
     * what operators did (enable, disable) alone. @return schedules changed; -1 when another node holds the lock
     */
    public int sync(Map<String, CalendarRegistry.Declared> calendars, Map<String, ScheduleRegistry.Declared> declared) {
        if (!schedules.tryWatchdogLock()) {
            return -1;
        }
        int changed = 0;
        for (CalendarRegistry.Declared c : calendars.values()) {
            changed += apply(c);
        }
        for (ScheduleRegistry.Declared d : declared.values()) {
            changed += apply(d);
        }
        for (StoredSchedule s : schedules.all()) {
            if (!s.created() && !declared.containsKey(s.name()) && s.enabled()) {
                if (attempt(s.name(), () -> tx.setEnabled(s.id(), false, DECLARATION))) {
                    LOG.warning(() -> "Schedule '" + s.name() + "' is no longer declared: disabled, and kept with its history "
                            + "(delete it in the console once it is no longer needed)");
                    changed++;
                }
            }
        }
        return changed;
    }

    /** Stages the missing future of every enabled schedule off its invariants. @return futures staged; -1 when locked elsewhere */
    public int repair() {
        if (!schedules.tryWatchdogLock()) {
            return -1;
        }
        int staged = 0;
        for (long id : schedules.offInvariants()) {
            if (attempt("id " + id, () -> tx.ensure(id))) {
                staged++;
            }
        }
        return staged;
    }

    /**
     * A calendar declaration, new or changed, written; then the futures of the schedules naming it restaged under it. A
     * change that would leave one of them without a run time is not applied (WARNING; the calendar keeps its last
     * valid definition). A calendar no longer declared stays, for the schedules that may name it.
     */
    private int apply(CalendarRegistry.Declared d) {
        String name = d.calendar().name();
        StoredCalendar stored = storedCalendars.named(name).orElse(null);
        if (stored != null && stored.created()) {
            LOG.warning(() -> "Calendar '" + name + "' is declared in " + d.source() + " and was also created in the console: "
                    + "that one is kept; rename one of them");
            return 0;
        }
        if (stored != null && Objects.equals(stored.declaredHash(), d.hash())) {
            return 0;
        }
        List<Long> users;
        try {
            users = tx.putCalendar(d.calendar(), d.source(), d.hash(), DECLARATION);
        } catch (ScheduleActionRefused e) {
            LOG.warning(() -> e.getMessage() + "; its declaration is not applied, the calendar keeps its last valid definition");
            return 0;
        }
        LOG.info(() -> "Calendar '" + name + "': " + (stored == null ? "declared" : "its declaration changed; applied, and the "
                + users.size() + " schedule(s) naming it restaged"));
        for (long id : users) {
            attempt("id " + id, () -> tx.restage(id, "calendar changed"));
        }
        return 1;
    }

    private int apply(ScheduleRegistry.Declared d) {
        String name = d.definition().name();
        StoredSchedule stored = schedules.named(name).orElse(null);
        if (stored == null) {
            return attempt(name, () -> tx.insert(d.definition(), d.source(), d.hash(), DECLARATION).isPresent()) ? 1 : 0;
        }
        if (stored.created()) {
            LOG.warning(() -> "Schedule '" + name + "' is declared in " + d.source() + " and was also created by "
                    + StoredSchedule.changedIn(name, stored.source()) + ": that one is kept; rename one of them");
            return 0;
        }
        if (Objects.equals(stored.declaredHash(), d.hash())) {
            return 0;
        }
        LOG.info(() -> "Schedule '" + name + "': its declaration changed; applying it");
        return attempt(name, () -> {
            tx.change(stored.id(), d.definition(), d.hash(), DECLARATION);
            return true;
        }) ? 1 : 0;
    }

    /** One schedule's step; a failure is logged and leaves the others to go on. */
    private static boolean attempt(String schedule, java.util.function.BooleanSupplier step) {
        try {
            return step.getAsBoolean();
        } catch (ScheduleActionRefused e) {
            LOG.warning(() -> "Schedule " + (schedule.startsWith("id ") ? schedule : "'" + schedule + "'") + ": " + e.getMessage()
                    + "; the watchdog tries again on its next pass");
            return false;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Schedule " + schedule + ": the watchdog's step failed; it tries again on its next pass");
            return false;
        }
    }
}
