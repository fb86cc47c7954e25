package io.dispatchpolicy.console.schedule;

import io.dispatchpolicy.domain.schedule.ScheduleDefinition;

import java.util.List;

/**
 * A schedule's page.
 *
 * @param upcoming  the live future occurrence (if any) and the grid's next run times after it
 * @param history   admitted occurrences, newest first (bounded)
 * @param skipped   skipped and superseded occurrences, newest first (bounded)
 * @param cut       the last catch-up cut ("missed runs from … to … were skipped"), or null
 */
public record ScheduleDetail(ScheduleSummary summary, ScheduleDefinition definition, List<OccurrenceView> upcoming,
                             List<OccurrenceView> history, List<OccurrenceView> skipped, String cut) implements java.io.Serializable {
}
