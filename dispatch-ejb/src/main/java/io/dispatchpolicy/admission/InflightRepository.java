package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.node.NodeRepository;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** In-flight rows after admission: counted by gates, started, finished, or taken over from dead nodes. */
@ApplicationScoped
public class InflightRepository {

    // A key's slots in flight, in every lane: what its gates count. Each job holds its cost; a timed-out one
    // whose thread has not let go yet holds none (ADR 0030).
    private static final Sql COUNT = Sql.of("""
            SELECT coalesce(sum(cost), 0) FROM dispatch.inflight_jobs WHERE gate_id = :gate
            """);

    // Conditional on ownership: if recovery moved the row to another node, this runner must not run.
    // The row lock serialises it with ADOPT_UNSTARTED, so exactly one runner ever starts an execution.
    private static final Sql STARTED = Sql.of("""
            UPDATE dispatch.inflight_jobs SET started_at = clock_timestamp()
             WHERE execution_id = :execution AND node_id = :node AND started_at IS NULL
            """);

    // The key's partitions (every lane) waiting out a full-backoff of their concurrency gate, woken because
    // a slot of the key (the CTE "gate": policy_name, partition_key) is free. Only such rows are locked, and
    // they are not being admitted, so this waits on no admission.
    private static final String WOKEN = """
            woken AS (
                UPDATE dispatch.partitions w SET next_eligible_at = NULL
                  FROM gate
                 WHERE w.policy_name = gate.policy_name AND w.partition_key = gate.partition_key
                   AND w.next_eligible_at > clock_timestamp()
                   AND w.last_deny_reason IN ('concurrency_full', 'adaptive_concurrency_full')
                RETURNING w.id)""";

    // Frees the slot and returns what the adaptive feedback needs: the partition, its key's gate row,
    // its policy, the context its gates evaluate, and the queue lag (admission to start) in milliseconds;
    // and whether anything follows the submission (ADR 0051: one index probe here rather than a statement
    // of its own on every job's end, most of which nothing follows).
    // The key's partitions (every lane) that were waiting out a full-backoff become eligible at once: the
    // slot they waited for is free (only such rows are locked here, and they are not being admitted, so
    // this waits on no admission).
    // The row goes only when JBeret's record holds the end the runner reached: a runner whose last
    // write was lost (a connection the database restart broke) leaves its row to reconcile, which
    // writes the end back and settles it, instead of freeing the slot of an execution still STARTED
    // on record.
    private static final Sql FINISHED = Sql.template("""
            WITH gone AS (
                DELETE FROM dispatch.inflight_jobs f WHERE f.execution_id = :execution
                   AND EXISTS (SELECT 1 FROM job_execution e WHERE e.jobexecutionid = f.execution_id AND e.batchstatus = :status)
                RETURNING partition_id, coalesce(gate_id, partition_id) AS gate_id, admitted_at, started_at, submission_id,
                          priority, attempt, cost, usage_half_life),
            gate AS (
                SELECT g.id, g.policy_name, g.partition_key, g.context, g.overrides FROM dispatch.partitions g JOIN gone ON g.id = gone.gate_id),
            {{woken}}
            SELECT gone.partition_id, gone.gate_id, gate.policy_name, gate.context::text,
                   extract(epoch FROM coalesce(gone.started_at, gone.admitted_at) - gone.admitted_at) * 1000,
                   EXISTS (SELECT 1 FROM woken), gone.submission_id, gone.priority, gone.attempt, gate.overrides::text,
                   EXISTS (SELECT 1 FROM dispatch.followers w WHERE w.after_submission = gone.submission_id AND w.state = 'waiting'),
                   {{used}}
              FROM gone LEFT JOIN gate ON true
            """).with("woken", WOKEN).with("used", usedColumns("gone.",
            // an ended run counts as JBeret timed it (its execution's start to end), its runner's start as the fallback
            "coalesce((SELECT e.endtime - e.starttime FROM job_execution e WHERE e.jobexecutionid = :execution), "
                    + "clock_timestamp() - gone.started_at)"));

    // A running execution past its timeout (ADR 0030), on the node that runs it: it holds no slot from now
    // on (cost 0: every gate, capacity and lane sums cost), and its key's partitions waiting out a
    // full-backoff are woken as a release wakes them. The row stays, owned by its node, until the runner
    // ends (which records it FAILED with the reason) or recovery settles it: the thread is still taken.
    private static final Sql TIMED_OUT = Sql.template("""
            WITH before AS (
                SELECT partition_id, cost, started_at, usage_half_life FROM dispatch.inflight_jobs WHERE execution_id = :execution),
            fired AS (
                UPDATE dispatch.inflight_jobs f
                   SET timed_out_at = clock_timestamp(), timeout_reason = :reason, cost = 0
                 WHERE f.execution_id = :execution AND f.node_id = :node AND f.timed_out_at IS NULL
                RETURNING f.policy_name, coalesce(f.gate_id, f.partition_id) AS gate_id, f.partition_id),
            gate AS (
                SELECT g.policy_name, g.partition_key FROM dispatch.partitions g JOIN fired ON g.id = fired.gate_id),
            {{woken}}
            SELECT fired.policy_name, fired.partition_id, EXISTS (SELECT 1 FROM woken), {{used}} FROM fired, before
            """).with("woken", WOKEN).with("used", usedColumns("before."));

    private static final Sql TIMEOUT_REASON = Sql.of("""
            SELECT timeout_reason FROM dispatch.inflight_jobs WHERE execution_id = :execution AND timed_out_at IS NOT NULL
            """);

    // Rows never started whose owner is gone. The UPDATE moves them to this node under row locks, so
    // exactly one recoverer gets each row; SKIP LOCKED avoids waiting on a row a runner is marking as
    // started right now.
    // (MATERIALIZED, here and below: a LIMITed SKIP LOCKED pick must run once; see StagingRepository.TAKE.)
    private static final Sql ADOPT_UNSTARTED = NodeRepository.withGone(Sql.template("""
            WITH orphan AS MATERIALIZED (
                SELECT j.execution_id
                  FROM dispatch.inflight_jobs j
                  JOIN dispatch.nodes n ON n.id = j.node_id
                 WHERE j.started_at IS NULL
                   AND j.node_id <> :node
                   AND {{gone}}
                 ORDER BY j.execution_id
                 LIMIT :limit
                   FOR UPDATE OF j SKIP LOCKED)
            UPDATE dispatch.inflight_jobs i
               SET node_id = :node
              FROM orphan
             WHERE i.execution_id = orphan.execution_id
            RETURNING i.execution_id
            """));

    // Rows of jobs that were running on a node that is gone, by the same test: their slots are
    // released here, in the transaction that also fails and restarts their executions.
    private static final Sql RELEASE_STARTED = NodeRepository.withGone(Sql.template("""
            WITH dead AS MATERIALIZED (
                SELECT j.execution_id
                  FROM dispatch.inflight_jobs j
                  JOIN dispatch.nodes n ON n.id = j.node_id
                 WHERE j.started_at IS NOT NULL
                   AND j.node_id <> :node
                   AND {{gone}}
                 ORDER BY j.execution_id
                 LIMIT :limit
                   FOR UPDATE OF j SKIP LOCKED)
            DELETE FROM dispatch.inflight_jobs i
             USING dead, dispatch.partitions p
             WHERE i.execution_id = dead.execution_id AND p.id = i.partition_id
            RETURNING i.execution_id, i.submission_id, i.partition_id, p.policy_name, i.priority, i.attempt,
                      i.stop_requested_at IS NOT NULL, {{used}}
            """).with("used", usedColumns("i.")));

    // A runner that ended STOPPED keeps its slot until it is known whether its server is going away.
    private static final Sql ENDED_STOPPED = Sql.of("""
            UPDATE dispatch.inflight_jobs SET ended_at = clock_timestamp(), ended_status = 'STOPPED'
             WHERE execution_id = :execution
            """);

    // An operator's stop, recorded before JBeret is asked: the STOPPED end it causes then stands.
    private static final Sql STOP_REQUESTED = Sql.of("""
            UPDATE dispatch.inflight_jobs SET stop_requested_at = clock_timestamp()
             WHERE execution_id = :execution AND stop_requested_at IS NULL
            """);

    // Where an in-flight execution runs: the node that must deliver a stop to its JBeret.
    private static final Sql OWNER = Sql.of("""
            SELECT i.node_id, coalesce(n.node_name, i.node_id::text) FROM dispatch.inflight_jobs i
              LEFT JOIN dispatch.nodes n ON n.id = i.node_id
             WHERE i.execution_id = :execution
            """);

    private static final Sql STOP_DELIVERED = Sql.of("""
            UPDATE dispatch.inflight_jobs SET stop_delivered_at = clock_timestamp()
             WHERE execution_id = :execution AND stop_delivered_at IS NULL
            """);

    private static final Sql OWN = Sql.of("""
            SELECT execution_id FROM dispatch.inflight_jobs WHERE node_id = :node ORDER BY execution_id
            """);

    // Rows of this node, locked for the transaction that repairs them. The ownership test is repeated
    // under the lock: a runner or another node may have moved the row on meanwhile.
    private static final Sql LOCK_OWN = Sql.of("""
            SELECT execution_id, started_at IS NOT NULL FROM dispatch.inflight_jobs
             WHERE execution_id = ANY(:executions::bigint[]) AND node_id = :node
             ORDER BY execution_id
               FOR UPDATE SKIP LOCKED
            """);

    // Rows this transaction holds locked: released like a dead node's, in the transaction that settles them.
    private static final Sql RELEASE = Sql.template("""
            DELETE FROM dispatch.inflight_jobs i
             USING dispatch.partitions p
             WHERE i.execution_id = ANY(:executions::bigint[]) AND p.id = i.partition_id
            RETURNING i.execution_id, i.submission_id, i.partition_id, p.policy_name, i.priority, i.attempt,
                      i.stop_requested_at IS NOT NULL, {{used}}
            """).with("used", usedColumns("i."));

    // Who submitted the job an in-flight execution runs: the admission's record (JBeret's row has no user until
    // a runner has run it).
    private static final Sql SUBMITTER = Sql.of("SELECT submitted_by FROM dispatch.admissions WHERE execution_id = :execution");

    private static final Sql FORGET = Sql.template("""
            DELETE FROM dispatch.inflight_jobs i WHERE i.execution_id = :execution RETURNING {{used}}
            """).with("used", usedColumns("i."));

    // Fairness by usage (ADR 0048): the slot-seconds of runs whose in-flight rows went (or whose slots a timeout freed)
    // added to their partitions' decayed usage, in the transaction that took the rows. A run of length r ending now adds
    // cost * tau * (1 - exp(-r / tau)), tau = half-life / ln 2: the integral of its slots, each second decayed to now —
    // what the claim counted for it while it ran (from its runner's start), so nothing jumps when it ends; an ended run
    // counts as JBeret timed it, the executions' real run time (ADR 0048). A statement of its own: a CTE
    // of the statement that deletes the row may update the same partition row (the woken backoff), and one statement
    // must not update a row twice.
    private static final Sql CHARGE_USAGE = Sql.of("""
            UPDATE dispatch.partitions p
               SET decayed_usage = p.decayed_usage
                                   * exp(-ln(2) * greatest(0, extract(epoch FROM clock_timestamp() - coalesce(p.usage_at, clock_timestamp())))
                                         / u.half_life) + u.added,
                   usage_at = clock_timestamp()
              FROM (SELECT partition_id, max(half_life) AS half_life,
                           sum(cost * half_life / ln(2) * (1 - exp(-ln(2) * greatest(0, run_ms) / 1000.0 / half_life))) AS added
                      FROM unnest(:partitions::bigint[], :costs::int[], :runMs::bigint[], :halfLives::float8[])
                           AS x(partition_id, cost, run_ms, half_life)
                     GROUP BY partition_id) u
             WHERE p.id = u.partition_id
            """);

    /**
     * The columns a statement that ends a run returns for {@link #charge}: the partition, cost, how long it ran (ms,
     * from its runner's start to now), half-life.
     */
    private static String usedColumns(String alias) {
        return usedColumns(alias, "clock_timestamp() - " + alias + "started_at");
    }

    /** As {@link #usedColumns(String)}, with the run's length as an interval expression (null: never started). */
    private static String usedColumns(String alias, String run) {
        return alias + "partition_id, " + alias + "cost, (extract(epoch FROM " + run + ") * 1000)::bigint, " + alias + "usage_half_life";
    }

    /** A run's part in its partition's usage; null when its policy does not order by usage or it never started. */
    private static Used used(java.sql.ResultSet rs, int from) throws java.sql.SQLException {
        long partition = rs.getLong(from);
        int cost = rs.getInt(from + 1);
        long run = rs.getLong(from + 2);
        boolean neverStarted = rs.wasNull();
        double halfLife = rs.getDouble(from + 3);
        return rs.wasNull() || neverStarted ? null : new Used(partition, cost, run, halfLife);
    }

    private record Used(long partitionId, int cost, long runMs, double halfLife) {
    }

    /** Adds the runs' slot-seconds to their partitions' usage (those of policies that order by usage). */
    private void charge(List<Used> runs) {
        List<Used> counted = runs.stream().filter(java.util.Objects::nonNull).toList();
        if (counted.isEmpty()) {
            return;
        }
        jdbc.update(CHARGE_USAGE, Params.of().longs("partitions", counted.stream().map(Used::partitionId).toList())
                .ints("costs", counted.stream().map(Used::cost).toList())
                .longs("runMs", counted.stream().map(Used::runMs).toList())
                .float8s("halfLives", counted.stream().map(Used::halfLife).toList()));
    }

    private static final Sql COST = Sql.of("SELECT cost FROM dispatch.inflight_jobs WHERE execution_id = :execution");



    @Inject
    Jdbc jdbc;

    /** The jobs in flight that count against the gates of the key whose gate row is {@code gateId}. */
    public long count(long gateId) {
        return jdbc.query(COUNT, Params.of().bigint("gate", gateId), rs -> rs.getLong(1)).get(0);
    }

    /** Marks the execution started by {@code node}; false if the row is not this node's to start. */
    public boolean started(long executionId, UUID node) {
        return jdbc.update(STARTED, Params.of().bigint("execution", executionId).uuid("node", node)) == 1;
    }

    /**
     * Deletes the row if JBeret's record of the execution says {@code recordedStatus}; empty when the
     * row was already gone (released by recovery) or the record lags the runner (reconcile settles it).
     */
    public Optional<InflightEnd> finished(long executionId, String recordedStatus) {
        List<Used> runs = new java.util.ArrayList<>();
        Optional<InflightEnd> end = jdbc.query(FINISHED, Params.of().bigint("execution", executionId).text("status", recordedStatus),
                rs -> {
                    runs.add(used(rs, 12));
                    return new InflightEnd(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getDouble(5),
                            rs.getBoolean(6), rs.getLong(7), rs.getInt(8), rs.getInt(9), rs.getString(10), rs.getBoolean(11));
                }).stream().findFirst();
        charge(runs);
        return end;
    }

    /**
     * Takes the slots of a running execution of {@code node} that is past its timeout (ADR 0030).
     *
     * @return the policy and partition it ran for, and whether a waiting partition was woken; empty when the
     * row is gone, another node's, or already timed out
     */
    public Optional<TimedOut> timedOut(long executionId, UUID node, String reason) {
        List<Used> runs = new java.util.ArrayList<>();
        Optional<TimedOut> fired = jdbc.query(TIMED_OUT, Params.of().bigint("execution", executionId).uuid("node", node)
                .text("reason", reason), rs -> {
                    runs.add(used(rs, 4));
                    return new TimedOut(rs.getString(1), rs.getLong(2), rs.getBoolean(3));
                }).stream().findFirst();
        charge(runs); // its slots are free from now: what it runs on counts no more (its cost is 0)
        return fired;
    }

    /** Why the execution was timed out, if it was (its row still in flight). */
    public Optional<String> timeoutReason(long executionId) {
        return jdbc.query(TIMEOUT_REASON, Params.of().bigint("execution", executionId), rs -> rs.getString(1)).stream().findFirst();
    }

    /** Moves up to {@code limit} never-started rows of gone nodes to {@code node}; returns their execution ids. */
    public List<Long> adoptUnstarted(UUID node, Duration staleAfter, Duration grace, int limit) {
        return jdbc.query(ADOPT_UNSTARTED, NodeRepository.gone(Params.of().uuid("node", node).integer("limit", limit), staleAfter, grace),
                rs -> rs.getLong(1));
    }

    /** Records that the execution's runner ended STOPPED; the row keeps its slot until reconciled. */
    public void endedStopped(long executionId) {
        jdbc.update(ENDED_STOPPED, Params.of().bigint("execution", executionId));
    }

    /** Records that an operator asked the execution to stop (a no-op once it has ended). */
    public void stopRequested(long executionId) {
        jdbc.update(STOP_REQUESTED, Params.of().bigint("execution", executionId));
    }

    /** The node an in-flight execution belongs to (its id and name); empty when it is not in flight. */
    public Optional<InflightOwner> ownerOf(long executionId) {
        return jdbc.query(OWNER, Params.of().bigint("execution", executionId),
                rs -> new InflightOwner(rs.getObject(1, UUID.class), rs.getString(2))).stream().findFirst();
    }

    /** Records that this node handed the requested stop to its JBeret. */
    public void stopDelivered(long executionId) {
        jdbc.update(STOP_DELIVERED, Params.of().bigint("execution", executionId));
    }

    /** Execution ids of every in-flight row this node owns. */
    public List<Long> ownedBy(UUID node) {
        return jdbc.query(OWN, Params.of().uuid("node", node), rs -> rs.getLong(1));
    }


    /** Locks those of {@code executionIds} that are still this node's (skipping rows others hold). */
    public List<OwnedInflight> lockOwn(UUID node, List<Long> executionIds) {
        return jdbc.query(LOCK_OWN, Params.of().longs("executions", executionIds).uuid("node", node), 
                rs -> new OwnedInflight(rs.getLong(1), rs.getBoolean(2)));
    }

    /** Deletes rows this transaction has locked and returns them. */
    public List<ReleasedInflight> release(List<Long> executionIds) {
        if (executionIds.isEmpty()) {
            return List.of();
        }
        return released(jdbc.query(RELEASE, Params.of().longs("executions", executionIds), InflightRepository::releasedRow));
    }

    /** Deletes up to {@code limit} rows of started jobs of gone nodes and returns them. */
    public List<ReleasedInflight> releaseStartedOfDeadNodes(UUID node, Duration staleAfter, Duration grace, int limit) {
        return released(jdbc.query(RELEASE_STARTED, NodeRepository.gone(Params.of().uuid("node", node).integer("limit", limit),
                staleAfter, grace), InflightRepository::releasedRow));
    }

    private List<ReleasedInflight> released(List<Map.Entry<ReleasedInflight, Optional<Used>>> rows) {
        charge(rows.stream().map(e -> e.getValue().orElse(null)).toList());
        return rows.stream().map(Map.Entry::getKey).toList();
    }

    private static Map.Entry<ReleasedInflight, Optional<Used>> releasedRow(java.sql.ResultSet rs) throws java.sql.SQLException {
        return Map.entry(new ReleasedInflight(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getInt(5), rs.getInt(6),
                rs.getBoolean(7)), Optional.ofNullable(used(rs, 8)));
    }

    /** Who submitted the job the execution runs, as its admission recorded it; empty when unknown or nobody. */
    public Optional<String> submitterOf(long executionId) {
        return jdbc.query(SUBMITTER, Params.of().bigint("execution", executionId), rs -> rs.getString(1)).stream()
                .filter(java.util.Objects::nonNull).findFirst();
    }

    /**
     * The batch threads an in-flight execution takes (ADR 0035), as its runner is held for them; 1 when it
     * has no row (nor a cost it could have had). A timed-out row's cost is 0 (its slots are free), but its
     * runner, resumed, takes its threads all the same.
     */
    public int threadsOf(long executionId) {
        return jdbc.query(COST, Params.of().bigint("execution", executionId), rs -> rs.getInt(1)).stream()
                .mapToInt(c -> Math.max(1, c)).findFirst().orElse(1);
    }

    /** Deletes the row without feedback (an execution recovery found already ended). */
    public void forget(long executionId) {
        charge(jdbc.query(FORGET, Params.of().bigint("execution", executionId), rs -> used(rs, 1)));
    }
}
