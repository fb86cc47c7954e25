package io.dispatchpolicy.console.monitoring;

import java.io.Serializable;
import java.time.Instant;

/** One minute of a policy's or a partition's history: jobs admitted, executions completed and failed. */
public record HistoryPoint(Instant minute, long admitted, long completed, long failed) implements Serializable {
}
