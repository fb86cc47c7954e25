package io.dispatchpolicy.console.monitoring;

/**
 * A page of the partitions browser.
 *
 * @param policy     only this policy, or null for all
 * @param keyContains a substring of the partition key (case-insensitive), or null
 * @param sortField  one of {@link #SORTABLE}; anything else sorts by pending jobs
 * @param ascending  sort direction
 */
public record PartitionQuery(String policy, String keyContains, String sortField, boolean ascending, int first, int pageSize) implements java.io.Serializable {

    public static final java.util.Set<String> SORTABLE = java.util.Set.of("policyName", "partitionKey", "pendingCount",
            "parkedCount", "totalAdmitted", "decayedAdmits", "lastAdmittedAt", "nextEligibleAt", "lastDeniedAt");
}
