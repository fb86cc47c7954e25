package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Records admissions (submission to execution) and in-flight jobs, and answers where a submission
 * stands.
 */
@ApplicationScoped
public class AdmissionRepository {

    // One round trip per admitted partition: the submission-to-execution rows, the in-flight rows
    // owned by this node, and the partition's counters.
    private static final String RECORD = """
            WITH batch AS (
                SELECT * FROM unnest(?::bigint[], ?::bigint[]) AS b(submission_id, execution_id)),
            adm AS (
                INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at)
                SELECT submission_id, execution_id, ?, clock_timestamp() FROM batch),
            inf AS (
                INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, node_id, admitted_at)
                SELECT execution_id, submission_id, ?, ?, clock_timestamp() FROM batch)
            UPDATE dispatch.partitions
               SET pending_count = pending_count - ?,
                   total_admitted = total_admitted + ?,
                   last_admitted_at = clock_timestamp()
             WHERE id = ?
            """;

    private static final String STATUS = """
            SELECT 'STAGED', NULL::bigint, staged_at FROM dispatch.staged_jobs WHERE id = ?
            UNION ALL
            SELECT 'ADMITTED', execution_id, admitted_at FROM dispatch.admissions WHERE submission_id = ?
            """;

    @Inject
    Jdbc jdbc;

    public void record(long partitionId, UUID nodeId, List<Admitted> admitted) {
        List<Long> submissions = admitted.stream().map(Admitted::submissionId).toList();
        List<Long> executions = admitted.stream().map(Admitted::executionId).toList();
        jdbc.update(RECORD, (c, st) -> {
            st.setArray(1, Jdbc.longs(c, submissions));
            st.setArray(2, Jdbc.longs(c, executions));
            st.setLong(3, partitionId);
            st.setLong(4, partitionId);
            st.setObject(5, nodeId);
            st.setInt(6, admitted.size());
            st.setInt(7, admitted.size());
            st.setLong(8, partitionId);
        });
    }

    public SubmissionStatus status(long submissionId) {
        return jdbc.query(STATUS, (c, st) -> {
            st.setLong(1, submissionId);
            st.setLong(2, submissionId);
        }, rs -> {
            String state = rs.getString(1);
            long execution = rs.getLong(2);
            return new SubmissionStatus(submissionId, SubmissionStatus.State.valueOf(state),
                    rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(execution), rs.getTimestamp(3).toInstant());
        }).stream().findFirst().orElse(SubmissionStatus.unknown(submissionId));
    }
}
