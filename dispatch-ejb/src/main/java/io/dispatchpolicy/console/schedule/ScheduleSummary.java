package io.dispatchpolicy.console.schedule;

import java.time.Instant;
import java.util.List;

/**
 * A schedule as the list shows it.
 *
 * @param source    code, config (standalone.xml) or console: only console schedules are edited or deleted there
 * @param when      the grid in words ("every 15 minutes from 2025-01-01T10:00Z", "cron 0 8 * * MON-FRI")
 * @param nextRuns  the next three run times (empty when disabled)
 * @param last      the most recent occurrence that is no longer future, if any
 */
public record ScheduleSummary(String name, String source, String jobName, String when, String zone, boolean enabled,
                              boolean catchUp, List<Instant> nextRuns, OccurrenceView last) implements java.io.Serializable {
}
