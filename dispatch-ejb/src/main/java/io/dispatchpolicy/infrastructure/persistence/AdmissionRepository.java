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

    // One round trip per admitted partition: the submission-to-execution rows (a restart after a crash
    // keeps its submission id and moves it to the new execution), the in-flight rows owned by this node,
    // and the partition's counters, gate state and decayed admits.
    private static final String RECORD = """
            WITH batch AS (
                SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::int[]) AS b(submission_id, execution_id, priority)),
            adm AS (
                INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at)
                SELECT submission_id, execution_id, ?, clock_timestamp() FROM batch
                ON CONFLICT (submission_id) DO UPDATE
                   SET execution_id = EXCLUDED.execution_id, admitted_at = EXCLUDED.admitted_at),
            inf AS (
                INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, node_id, admitted_at, priority)
                SELECT execution_id, submission_id, ?, ?, clock_timestamp(), priority FROM batch)
            UPDATE dispatch.partitions
               SET pending_count = pending_count - ?,
                   total_admitted = total_admitted + ?,
                   last_admitted_at = clock_timestamp(),
                   gate_state = coalesce(?::jsonb, gate_state),
                   decayed_admits = coalesce(?, decayed_admits),
                   decayed_admits_at = coalesce(to_timestamp(? / 1000.0), decayed_admits_at),
                   buckets_full_at = coalesce(to_timestamp(? / 1000.0), buckets_full_at),
                   next_eligible_at = NULL,
                   last_deny_reason = NULL,
                   top_priority = TOP_PRIORITY
             WHERE id = ?
            """.replace("TOP_PRIORITY", StagingRepository.topPriorityOf("dispatch.partitions.id"));

    private static final String STATUS = """
            SELECT 'STAGED', NULL::bigint, staged_at, due_at FROM dispatch.staged_jobs WHERE id = ?
            UNION ALL
            SELECT 'ADMITTED', execution_id, admitted_at, NULL FROM dispatch.admissions WHERE submission_id = ?
            """;

    @Inject
    Jdbc jdbc;

    /**
     * Records the jobs admitted from a partition.
     *
     * @param priorities    each admitted job's priority (kept on its in-flight row, so a restart after a
     *                      crash keeps it)
     * @param pendingTaken  how many of them came out of the partition's pending count (a bypass restart
     *                      never was pending)
     * @param gateStateJson the charged gate state, or null to leave it (a bypass restart passes no gate)
     * @param decayedAdmits the new decayed-admits average at {@code nowMillis}, or null to leave it
     * @param bucketsFullAtMillis when the charged throttle buckets are full again, or null to leave it
     */
    public void record(long partitionId, UUID nodeId, List<Admitted> admitted, List<Integer> priorities, int pendingTaken,
                       String gateStateJson, Double decayedAdmits, long nowMillis, Long bucketsFullAtMillis) {
        List<Long> submissions = admitted.stream().map(Admitted::submissionId).toList();
        List<Long> executions = admitted.stream().map(Admitted::executionId).toList();
        jdbc.update(RECORD, (c, st) -> {
            st.setArray(1, Jdbc.longs(c, submissions));
            st.setArray(2, Jdbc.longs(c, executions));
            st.setArray(3, Jdbc.ints(c, priorities));
            st.setLong(4, partitionId);
            st.setLong(5, partitionId);
            st.setObject(6, nodeId);
            st.setInt(7, pendingTaken);
            st.setInt(8, admitted.size());
            st.setString(9, gateStateJson);
            st.setObject(10, decayedAdmits, java.sql.Types.DOUBLE);
            st.setObject(11, decayedAdmits == null ? null : nowMillis, java.sql.Types.BIGINT);
            st.setObject(12, bucketsFullAtMillis, java.sql.Types.BIGINT);
            st.setLong(13, partitionId);
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
                    rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(execution), rs.getTimestamp(3).toInstant(),
                    Jdbc.instant(rs.getTimestamp(4)));
        }).stream().findFirst().orElse(SubmissionStatus.unknown(submissionId));
    }
}
