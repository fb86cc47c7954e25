package io.dispatchpolicy.application;

import io.dispatchpolicy.domain.model.ClaimedPartition;

import java.util.List;

/** Claims partitions and admits their staged jobs into JBeret, each in its own transaction. */
public interface AdmissionService {

    /** Claims up to {@code limit} partitions with pending work, in a short transaction of its own. */
    List<ClaimedPartition> claim(int limit);

    /**
     * Admits up to {@code limit} of the partition's staged jobs in one transaction: staged rows removed,
     * JBeret instances and executions created, admissions and in-flight rows written, partition counters
     * updated. Runners start after commit. A failure rolls back this partition alone.
     *
     * @return jobs admitted; 0 when another worker holds the partition or nothing is staged
     */
    int admit(ClaimedPartition partition, int limit);
}
