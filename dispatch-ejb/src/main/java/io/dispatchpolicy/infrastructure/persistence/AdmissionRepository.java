package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.domain.model.StagedJob;
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
                SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::int[], ?::int[]) AS b(submission_id, execution_id, priority, attempt)),
            adm AS (
                INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at, attempt)
                SELECT submission_id, execution_id, ?, clock_timestamp(), attempt FROM batch
                ON CONFLICT (submission_id) DO UPDATE
                   SET execution_id = EXCLUDED.execution_id, admitted_at = EXCLUDED.admitted_at, attempt = EXCLUDED.attempt),
            inf AS (
                INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, node_id, admitted_at, priority, attempt)
                SELECT execution_id, submission_id, ?, ?, clock_timestamp(), priority, attempt FROM batch)
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
            SELECT 'STAGED', NULL::bigint, staged_at, due_at, attempt FROM dispatch.staged_jobs WHERE id = ?
            UNION ALL
            SELECT 'DEAD', execution_id, died_at, NULL, attempts FROM dispatch.dead_jobs WHERE submission_id = ?
            UNION ALL
            SELECT 'ADMITTED', execution_id, admitted_at, NULL, attempt FROM dispatch.admissions WHERE submission_id = ?
            """;

    @Inject
    Jdbc jdbc;

    /**
     * Records the jobs admitted from a partition.
     *
     * @param jobs          the staged jobs admitted, in the order of {@code admitted}: their priority and
     *                      attempt stay on the in-flight row, so a restart after a crash keeps them
     * @param pendingTaken  how many of them came out of the partition's pending count (a bypass restart
     *                      never was pending)
     * @param gateStateJson the charged gate state, or null to leave it (a bypass restart passes no gate)
     * @param decayedAdmits the new decayed-admits average at {@code nowMillis}, or null to leave it
     * @param bucketsFullAtMillis when the charged throttle buckets are full again, or null to leave it
     */
    public void record(long partitionId, UUID nodeId, List<Admitted> admitted, List<StagedJob> jobs, int pendingTaken,
                       String gateStateJson, Double decayedAdmits, long nowMillis, Long bucketsFullAtMillis) {
        List<Long> submissions = admitted.stream().map(Admitted::submissionId).toList();
        List<Long> executions = admitted.stream().map(Admitted::executionId).toList();
        jdbc.update(RECORD, (c, st) -> {
            st.setArray(1, Jdbc.longs(c, submissions));
            st.setArray(2, Jdbc.longs(c, executions));
            st.setArray(3, Jdbc.ints(c, jobs.stream().map(StagedJob::priority).toList()));
            st.setArray(4, Jdbc.ints(c, jobs.stream().map(StagedJob::attempt).toList()));
            st.setLong(5, partitionId);
            st.setLong(6, partitionId);
            st.setObject(7, nodeId);
            st.setInt(8, pendingTaken);
            st.setInt(9, admitted.size());
            st.setString(10, gateStateJson);
            st.setObject(11, decayedAdmits, java.sql.Types.DOUBLE);
            st.setObject(12, decayedAdmits == null ? null : nowMillis, java.sql.Types.BIGINT);
            st.setObject(13, bucketsFullAtMillis, java.sql.Types.BIGINT);
            st.setLong(14, partitionId);
        });
    }

    public SubmissionStatus status(long submissionId) {
        return jdbc.query(STATUS, (c, st) -> {
            st.setLong(1, submissionId);
            st.setLong(2, submissionId);
            st.setLong(3, submissionId);
        }, rs -> {
            String state = rs.getString(1);
            long execution = rs.getLong(2);
            return new SubmissionStatus(submissionId, SubmissionStatus.State.valueOf(state),
                    rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(execution), rs.getTimestamp(3).toInstant(),
                    Jdbc.instant(rs.getTimestamp(4)), rs.getInt(5));
        }).stream().findFirst().orElse(SubmissionStatus.unknown(submissionId));
    }
}
