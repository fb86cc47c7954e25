package io.dispatchpolicy.application.monitoring;

import io.dispatchpolicy.domain.model.Partition;

import java.util.List;
import java.util.Optional;

/** The engine's state, read for the console and the JSON endpoint. */
public interface Monitoring {

    Summary summary();

    /** The names of the declared policies, sorted. */
    List<String> policyNames();

    /** This node's view, read without the database: answers during an outage. */
    NodeStatus nodeStatus();

    List<PolicySummary> policies();

    List<Partition> partitions(PartitionQuery query);

    long countPartitions(PartitionQuery query);

    Optional<PartitionDetail> partition(long partitionId);

    /** Partitions denied within the last {@code withinSeconds}, newest first; filters may be null. */
    List<DenialRow> denials(long withinSeconds, String policy, String reason, String keyContains);
}
