package io.dispatchpolicy.schedule;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.logging.Logger;

/**
 * Converges every schedule to its invariants on {@code dispatch.schedule-watchdog-interval} (every node
 * runs it; one at a time): applies the declarations, then stages the future occurrence each enabled
 * schedule lacks. Chaining keeps schedules converged on its own; the watchdog repairs what it could
 * not (a drained future, a declaration changed live, a next occurrence in another partition).
 */
// A singleton with bean-managed concurrency (it holds no state of a pass): the maintenance loop names it in @DependsOn.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@DependsOn("WatchdogPass")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ScheduleWatchdog {

    private static final Logger LOG = Logger.getLogger(ScheduleWatchdog.class.getName());

    @Inject
    ScheduleRegistry registry;

    @Inject
    WatchdogPass pass;

    @Inject
    CalendarRegistry calendars;

    /** The last declaration problem logged: logged again only when it changes. */
    private volatile String lastProblem;

    /** @return schedules changed or repaired; -1 when another node (or thread) held the pass, which then did it */
    public int pass() {
        Map<String, ScheduleRegistry.Declared> declared;
        Map<String, CalendarRegistry.Declared> declaredCalendars;
        try {
            // calendars first: a schedule declaration may name one
            declaredCalendars = calendars.declared();
            declared = registry.declared();
            lastProblem = null;
        } catch (RuntimeException e) {
            // a bad value written live: the definitions applied last stay in force until it is fixed
            String problem = String.valueOf(e.getMessage());
            if (!problem.equals(lastProblem)) {
                lastProblem = problem;
                LOG.warning(() -> problem + "; the schedules keep their last valid definitions until this is fixed");
            }
            declared = null;
            declaredCalendars = null;
        }
        int changed = declared == null ? 0 : pass.sync(declaredCalendars, declared);
        if (changed < 0) {
            return -1;
        }
        int repaired = pass.repair();
        return repaired < 0 ? -1 : changed + repaired;
    }
}
