package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.domain.model.Partition;

import java.util.List;

/**
 * The partition page.
 *
 * @param contextJson        the context its gates evaluate
 * @param admitsPerMinute    the decayed-admits average expressed per minute
 * @param waiting            why it is waiting and until when, in words; null when it is not
 * @param recentStaged       its oldest staged jobs, parked ones included
 */
public record PartitionDetail(Partition partition, String contextJson, List<GateView> gates, long inFlight,
                              double admitsPerMinute, String waiting, List<StagedJobView> recentStaged) {
}
