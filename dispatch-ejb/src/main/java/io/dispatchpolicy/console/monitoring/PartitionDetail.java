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
 * @param overrides          operators' overrides in force for it (its key's gates, its lane), beside the policy's values
 * @param gateParams         per gate id of its policy, the parameters an override may set (for the form)
 */
public record PartitionDetail(Partition partition, String contextJson, List<GateView> gates, long inFlight,
                              double admitsPerMinute, String waiting, List<StagedJobView> recentStaged,
                              List<OverrideView> overrides, java.util.Map<String, List<String>> gateParams) implements java.io.Serializable {
}
