package io.dispatchpolicy.console.monitoring;

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

    /**
     * A policy's admitted, completed and failed jobs per minute over the last {@code minutes} (at most
     * {@link #HISTORY_MAX_MINUTES}), oldest first, every minute present (0 when nothing happened).
     */
    List<HistoryPoint> policyHistory(String policy, int minutes);

    /** As {@link #policyHistory}, for one partition. */
    List<HistoryPoint> partitionHistory(long partitionId, int minutes);

    /** The longest history a chart or the API asks for: a day, the default {@code metrics-retention}. */
    int HISTORY_MAX_MINUTES = 1440;

    /** Every reason a partition can be denied for now: the fixed ones, then each declared limit's two. */
    List<String> denialReasons();

    /** The named limits (ADR 0049), by name: their values now, who uses them, what is in flight under them. */
    List<LimitView> limits();

    /** The declared webhooks and any others with deliveries kept, by name, with their deliveries' counts (ADR 0041). */
    List<WebhookView> webhooks();

    /**
     * The partitions denied now, newest first: exactly those {@link Summary#deniedPartitions()} counts (its
     * {@link Summary#deniedNow()} per reason); filters may be null.
     */
    List<DenialRow> deniedNow(String policy, String reason, String keyContains);

    /** Denial episodes within the last {@code withinSeconds}, newest first; filters may be null. */
    List<DenialRow> denials(long withinSeconds, String policy, String reason, String keyContains);
}
