package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.schedule.ExcludingGrid;
import io.dispatchpolicy.domain.schedule.ExclusionCalendar;
import io.dispatchpolicy.domain.schedule.Grid;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredCalendar;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Optional;

/**
 * When a schedule runs, with the calendar it names applied (ADR 0053): every place that plans run times (chaining, the
 * watchdog, skip, the console's next run times) asks here, so a calendar is never forgotten by one of them.
 */
@ApplicationScoped
public class ScheduleGrids {

    @Inject
    CalendarRepository calendars;

    @Inject
    CalendarRegistry declared;

    /** The definition's grid less its calendar's exclusions. @throws ScheduleActionRefused when its calendar is gone */
    public Grid of(ScheduleDefinition d) {
        return d.grid(calendar(d).orElse(null));
    }

    /**
     * A fixed-delay schedule's run due at {@code t}, at the first time its calendar allows from there (the start of the
     * next allowed day, or an excluded window's end).
     */
    public Instant fixedDelayRun(ScheduleDefinition d, Instant t) {
        return calendar(d).map(c -> c.firstAllowedFrom(t, false, ExcludingGrid.HORIZON_DAYS).orElseThrow(
                () -> new ScheduleActionRefused("Schedule '" + d.name() + "': calendar '" + c.name() + "' allows no time within "
                        + ExcludingGrid.HORIZON_DAYS + " days"))).orElse(t);
    }

    /**
     * Refuses a definition naming a calendar that is not declared, or one that excludes every run time within ten
     * years from {@code now}, as a cron that never matches is refused.
     */
    public void check(ScheduleDefinition d, Instant now) {
        if (d.calendar() == null) {
            return;
        }
        ExclusionCalendar c = resolved(d.calendar()).orElseThrow(() -> new ScheduleDeclarationException("Schedule '" + d.name()
                + "': calendar '" + d.calendar() + "' is not declared: declare it in code, standalone.xml (dispatch.calendar."
                + d.calendar() + ".*) or the console first"));
        if (!runsUnder(d, c, now)) {
            throw new ScheduleDeclarationException("Schedule '" + d.name() + "': calendar '" + c.name()
                    + "' excludes every run time of the schedule for ten years: nothing would ever run");
        }
    }

    /** Whether the schedule has a run time within ten years from {@code now} under calendar {@code c}. */
    static boolean runsUnder(ScheduleDefinition d, ExclusionCalendar c, Instant now) {
        if (d.isFixedDelay()) {
            return c.firstAllowedFrom(now, false, ExcludingGrid.HORIZON_DAYS).isPresent();
        }
        try {
            d.grid(c).firstAfter(now);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private Optional<ExclusionCalendar> calendar(ScheduleDefinition d) {
        if (d.calendar() == null) {
            return Optional.empty();
        }
        return Optional.of(resolved(d.calendar()).orElseThrow(() -> new ScheduleActionRefused("Schedule '" + d.name()
                + "': its calendar '" + d.calendar() + "' is not declared")));
    }

    // the database's (every node's) first; a declaration of this deployment not written yet (boot, before the
    // watchdog's first pass) next
    private Optional<ExclusionCalendar> resolved(String name) {
        Optional<ExclusionCalendar> stored = calendars.named(name).map(StoredCalendar::calendar);
        return stored.isPresent() ? stored : Optional.ofNullable(declared.declared().get(name)).map(CalendarRegistry.Declared::calendar);
    }
}
