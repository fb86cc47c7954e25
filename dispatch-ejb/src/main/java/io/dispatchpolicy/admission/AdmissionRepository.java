package io.dispatchpolicy.admission;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import io.dispatchpolicy.staging.StagedJobRows;
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

    // One round trip per admission transaction, for one partition or a group admitted together (ADR
    // 0016): the submission-to-execution rows (a restart after a crash keeps its submission id and moves
    // it to the new execution; what its first staging knew stays, for the Jobs view), the in-flight rows
    // owned by this node, each partition's counters and decayed admits, and the gate state on its key's
    // gate row (the partition itself outside lanes). The partitions of one call never share a gate row
    // (only lanes of a key do, and lanes are admitted one partition per transaction).
    private static final Sql RECORD = Sql.template("""
            WITH node AS (SELECT :node::uuid AS id),
            args AS (
                SELECT a.partition_id, a.gate_id, a.lane, a.policy, a.taken, a.admitted, a.gate_state::jsonb AS gate_state,
                       a.decayed, a.decayed_at, a.full_at, a.wait_reason, a.wait_ms, a.usage_half_life,
                       CASE WHEN a.limit_keys IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(a.limit_keys::jsonb)) END AS limit_keys
                  FROM unnest(:partitions::bigint[], :gates::bigint[], :lanes::text[], :policies::text[], :taken::int[],
                              :admitted::int[], :gateStates::text[], :decayed::float8[], :decayedAt::bigint[], :fullAt::bigint[],
                              :waitReasons::text[], :waitMs::bigint[], :usageHalfLives::float8[], :limitKeys::text[])
                       AS a(partition_id, gate_id, lane, policy, taken, admitted, gate_state, decayed, decayed_at, full_at,
                            wait_reason, wait_ms, usage_half_life, limit_keys)),
            batch AS (
                SELECT * FROM unnest(:jobPartitions::bigint[], :submissions::bigint[], :executions::bigint[], :priorities::int[],
                                     :attempts::int[], :stagedMs::bigint[], :submittedBy::text[], :dueMs::bigint[], :jobNames::text[],
                                     :runTimeouts::bigint[], :progressTimeouts::bigint[], :ownRunTimeouts::bigint[],
                                     :ownProgressTimeouts::bigint[], :costs::int[], :orderedUs::bigint[])
                       AS b(partition_id, submission_id, execution_id, priority, attempt, staged_ms, submitted_by, due_ms, job_name,
                            run_timeout_ms, progress_timeout_ms, own_run_timeout_ms, own_progress_timeout_ms, cost, ordered_us)),
            adm AS (
                INSERT INTO dispatch.admissions AS a (submission_id, execution_id, partition_id, admitted_at, attempt, node_id,
                                                 staged_at, submitted_by, priority, due_at, job_name, run_timeout_ms,
                                                 progress_timeout_ms, cost, ordered_at)
                SELECT b.submission_id, b.execution_id, b.partition_id, clock_timestamp(), b.attempt, node.id,
                       to_timestamp(b.staged_ms / 1000.0), b.submitted_by, b.priority, to_timestamp(b.due_ms / 1000.0), b.job_name,
                       b.own_run_timeout_ms, b.own_progress_timeout_ms, b.cost, to_timestamp(b.ordered_us / 1e6)
                  FROM batch b, node
                ON CONFLICT (submission_id) DO UPDATE
                   SET execution_id = EXCLUDED.execution_id, admitted_at = EXCLUDED.admitted_at, attempt = EXCLUDED.attempt,
                       node_id = EXCLUDED.node_id, staged_at = coalesce(a.staged_at, EXCLUDED.staged_at),
                       submitted_by = coalesce(a.submitted_by, EXCLUDED.submitted_by),
                       priority = coalesce(a.priority, EXCLUDED.priority),
                       ordered_at = coalesce(a.ordered_at, EXCLUDED.ordered_at),
                       due_at = coalesce(a.due_at, EXCLUDED.due_at), job_name = EXCLUDED.job_name,
                       run_timeout_ms = EXCLUDED.run_timeout_ms, progress_timeout_ms = EXCLUDED.progress_timeout_ms,
                       cost = EXCLUDED.cost),
            inf AS (
                INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, lane, policy_name, node_id,
                                                    admitted_at, priority, attempt, run_timeout_ms, progress_timeout_ms, cost,
                                                    usage_half_life, limit_keys)
                SELECT b.execution_id, b.submission_id, b.partition_id, args.gate_id, args.lane, args.policy, node.id,
                       clock_timestamp(), b.priority, b.attempt, b.run_timeout_ms, b.progress_timeout_ms, b.cost, args.usage_half_life,
                       args.limit_keys
                  FROM batch b JOIN args ON args.partition_id = b.partition_id, node),
            limit_keys AS (
                -- the keys its shared limits count it under (ADR 0049; V44), gone with the in-flight row
                INSERT INTO dispatch.inflight_limit_keys (limit_key, execution_id)
                SELECT DISTINCT k, b.execution_id FROM batch b JOIN args ON args.partition_id = b.partition_id, unnest(args.limit_keys) AS k),
            gate AS (
                UPDATE dispatch.partitions g
                   SET gate_state = coalesce(args.gate_state, g.gate_state),
                       buckets_full_at = coalesce(to_timestamp(args.full_at / 1000.0), g.buckets_full_at)
                  FROM args
                 WHERE g.id = args.gate_id AND args.gate_id <> args.partition_id
                   -- a lane's admission rewrites its key's gate row only when its gate state changed
                   AND (g.gate_state IS DISTINCT FROM coalesce(args.gate_state, g.gate_state)
                        OR g.buckets_full_at IS DISTINCT FROM coalesce(to_timestamp(args.full_at / 1000.0), g.buckets_full_at)))
            UPDATE dispatch.partitions p
               SET pending_count = p.pending_count - args.taken,
                   total_admitted = p.total_admitted + args.admitted,
                   last_admitted_at = clock_timestamp(),
                   gate_state = CASE WHEN p.id = args.gate_id THEN coalesce(args.gate_state, p.gate_state) ELSE p.gate_state END,
                   buckets_full_at = CASE WHEN p.id = args.gate_id
                                          THEN coalesce(to_timestamp(args.full_at / 1000.0), p.buckets_full_at)
                                          ELSE p.buckets_full_at END,
                   decayed_admits = coalesce(args.decayed, p.decayed_admits),
                   decayed_admits_at = coalesce(to_timestamp(args.decayed_at / 1000.0), p.decayed_admits_at),
                   -- fairness by usage (ADR 0048): from its first admission the claim counts what its jobs run
                   usage_at = CASE WHEN args.usage_half_life IS NULL THEN p.usage_at ELSE coalesce(p.usage_at, clock_timestamp()) END,
                   next_eligible_at = CASE WHEN args.wait_ms > 0 THEN clock_timestamp() + make_interval(secs => args.wait_ms / 1000.0) END,
                   last_deny_reason = args.wait_reason,
                   top_priority = {{topPriority}}
              FROM args
             WHERE p.id = args.partition_id
            """).with("topPriority", StagedJobRows.topPriorityOf("p.id"));

    private static final Sql STATUS = Sql.of("""
            SELECT 'STAGED', NULL::bigint, staged_at, due_at, attempt FROM dispatch.staged_jobs WHERE id = :submission
            UNION ALL
            SELECT 'DEAD', execution_id, died_at, NULL, attempts FROM dispatch.dead_jobs WHERE submission_id = :submission
            UNION ALL
            SELECT 'ADMITTED', execution_id, admitted_at, NULL, attempt FROM dispatch.admissions WHERE submission_id = :submission
            UNION ALL
            SELECT CASE WHEN reason = 'expired' THEN 'EXPIRED' ELSE 'DISCARDED' END, NULL, discarded_at, NULL, 0
              FROM dispatch.discarded_jobs WHERE submission_id = :submission
            """);

    @Inject
    Jdbc jdbc;

    /** Records what one admission transaction admitted, from one partition or from each of a group. */
    public void record(UUID nodeId, List<Recording> recordings) {
        List<Recording> rs = List.copyOf(recordings);
        List<Long> jobPartitions = new java.util.ArrayList<>();
        List<Admitted> admitted = new java.util.ArrayList<>();
        List<StagedJob> jobs = new java.util.ArrayList<>();
        List<JobTimeouts> timeouts = new java.util.ArrayList<>();
        for (Recording r : rs) {
            r.admitted().forEach(a -> jobPartitions.add(r.where().partitionId()));
            admitted.addAll(r.admitted());
            jobs.addAll(r.jobs());
            timeouts.addAll(r.timeouts());
        }
        jdbc.update(RECORD, Params.of().uuid("node", nodeId)
                .longs("partitions", rs.stream().map(r -> r.where().partitionId()).toList())
                .longs("gates", rs.stream().map(r -> r.where().gateId()).toList())
                .texts("lanes", rs.stream().map(r -> r.where().lane()).toList())
                .texts("policies", rs.stream().map(r -> r.where().policyName()).toList())
                .ints("taken", rs.stream().map(Recording::pendingTaken).toList())
                .ints("admitted", rs.stream().map(r -> r.admitted().size()).toList())
                .texts("gateStates", rs.stream().map(Recording::gateStateJson).toList())
                .float8s("decayed", rs.stream().map(Recording::decayedAdmits).toList())
                .longs("decayedAt", rs.stream().map(r -> r.decayedAdmits() == null ? null : r.nowMillis()).toList())
                .longs("fullAt", rs.stream().map(Recording::bucketsFullAtMillis).toList())
                .texts("waitReasons", rs.stream().map(r -> r.next() == null ? null : r.next().reason()).toList())
                .longs("waitMs", rs.stream().map(r -> r.next() == null ? 0L : r.next().retryMillis()).toList())
                .float8s("usageHalfLives", rs.stream().map(Recording::usageHalfLife).toList())
                .texts("limitKeys", rs.stream().map(Recording::limitKeys).toList())
                .longs("jobPartitions", jobPartitions)
                .longs("submissions", admitted.stream().map(Admitted::submissionId).toList())
                .longs("executions", admitted.stream().map(Admitted::executionId).toList())
                .ints("priorities", jobs.stream().map(StagedJob::priority).toList())
                .ints("attempts", jobs.stream().map(StagedJob::attempt).toList())
                .longs("stagedMs", jobs.stream().map(j -> j.stagedAt().toEpochMilli()).toList())
                .texts("submittedBy", jobs.stream().map(StagedJob::submittedBy).toList())
                .longs("dueMs", jobs.stream().map(j -> j.dueAt() == null ? null : j.dueAt().toEpochMilli()).toList())
                .texts("jobNames", jobs.stream().map(StagedJob::jobName).toList())
                .longs("runTimeouts", timeouts.stream().map(JobTimeouts::runMs).toList())
                .longs("progressTimeouts", timeouts.stream().map(JobTimeouts::progressMs).toList())
                .longs("ownRunTimeouts", jobs.stream().map(j -> j.timeouts().runMs()).toList())
                .longs("ownProgressTimeouts", jobs.stream().map(j -> j.timeouts().progressMs()).toList())
                .ints("costs", jobs.stream().map(StagedJob::cost).toList())
                .longs("orderedUs", jobs.stream().map(j -> java.time.temporal.ChronoUnit.MICROS.between(java.time.Instant.EPOCH,
                        j.orderedAt())).toList()));
    }

    /**
     * What one partition admitted in a transaction.
     *
     * @param admitted      the jobs JBeret took, with their executions
     * @param jobs          the staged jobs admitted, in the order of {@code admitted}: their priority and
     *                      attempt stay on the in-flight row, so a restart after a crash keeps them
     * @param pendingTaken  how many jobs came out of the partition's pending count (a bypass restart
     *                      never was pending; a schedule's missed occurrence was, and is not admitted)
     * @param gateStateJson the charged gate state, or null to leave it (a bypass restart passes no gate)
     * @param decayedAdmits the new decayed-admits average at {@code nowMillis}, or null to leave it
     * @param bucketsFullAtMillis when the charged throttle buckets are full again, or null to leave it
     * @param next          what the partition's gates say of its next job now that these are admitted, or
     *                      null when they would admit it: the partition waits from this commit on
     * @param timeouts      the timeouts in force for each of {@code jobs}, in their order (ADR 0030)
     */
    public record Recording(Admitting where, List<Admitted> admitted, List<StagedJob> jobs, int pendingTaken,
                            String gateStateJson, Double decayedAdmits, long nowMillis, Long bucketsFullAtMillis, Waiting next,
                            List<JobTimeouts> timeouts, Double usageHalfLife, String limitKeys) {
    }

    /**
     * Where admitted jobs come from: the partition, its key's gate row (the partition itself outside
     * lanes), its lane ({@code ""} outside lanes) and its policy — kept on the in-flight rows, which the
     * gates, the lane shares and the policy's capacity count.
     */
    public record Admitting(long partitionId, long gateId, String lane, String policyName) {
    }

    /** A partition's gates deny its next job: why, and for how long at most (a freed slot wakes it sooner). */
    public record Waiting(String reason, long retryMillis) {
    }

    public SubmissionStatus status(long submissionId) {
        return jdbc.query(STATUS, Params.of().bigint("submission", submissionId), rs -> {
            String state = rs.getString(1);
            long execution = rs.getLong(2);
            return new SubmissionStatus(submissionId, SubmissionStatus.State.valueOf(state),
                    rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(execution), rs.getTimestamp(3).toInstant(),
                    Jdbc.instant(rs.getTimestamp(4)), rs.getInt(5));
        }).stream().findFirst().orElse(SubmissionStatus.unknown(submissionId));
    }
}
