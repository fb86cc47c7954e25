package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.node.NodeRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The console's reads: aggregates over partitions, tick samples and in-flight rows. */
@ApplicationScoped
public class MonitoringRepository {

    // A partition denied now: its last check denied it and it waits until a time still ahead. One predicate for the
    // dashboard's count, its reasons, a policy's "waiting on" and the Denials page's "denied now", so they agree.
    static final String DENIED_NOW = "next_eligible_at > clock_timestamp() AND last_deny_reason IS NOT NULL";

    // The declared policies' partitions only (:declared): an undeployed application's partitions are counted apart.
    // A partition is a key: its own row (lane ''), which every key has, lanes or not — not its lanes' rows too.
    private static final Sql TOTALS = Sql.template("""
            SELECT coalesce(sum(pending_count), 0), coalesce(sum(parked_count), 0), coalesce(sum(total_admitted), 0),
                   count(*) FILTER (WHERE {{deniedNow}}),
                   count(*) FILTER (WHERE lane = '')
              FROM dispatch.partitions WHERE policy_name = ANY (CAST(:declared AS text[]))
            """).with("deniedNow", DENIED_NOW);

    private static final Sql DENIED_NOW_BY_REASON = Sql.template("""
            SELECT last_deny_reason, count(*) FROM dispatch.partitions
             WHERE policy_name = ANY (CAST(:declared AS text[])) AND {{deniedNow}}
             GROUP BY 1 ORDER BY 2 DESC, 1
            """).with("deniedNow", DENIED_NOW);

    // Partitions of policies this deployment does not declare (an application undeployed, or not yet deployed).
    private static final Sql UNDECLARED = Sql.of("""
            SELECT policy_name, count(*), coalesce(sum(pending_count + scheduled_count + parked_count), 0)
              FROM dispatch.partitions WHERE NOT policy_name = ANY (CAST(:declared AS text[]))
             GROUP BY 1 ORDER BY 1 LIMIT 20
            """);

    private static final Sql IN_FLIGHT = Sql.of("SELECT count(*) FROM dispatch.inflight_jobs");

    private static final Sql DEAD = Sql.of("SELECT count(*) FROM dispatch.dead_jobs");

    // Jobs a submission control took out without running them in the last 24 hours (ADR 0036), off discarded_jobs_at_idx.
    private static final Sql DISCARDED = Sql.of("""
            SELECT count(*) FILTER (WHERE reason = 'expired'), count(*) FILTER (WHERE reason <> 'expired')
              FROM dispatch.discarded_jobs WHERE discarded_at > clock_timestamp() - interval '24 hours'
            """);

    // Every node writes one sample per tick; windows sum the admissions of samples that started in them.
    private static final Sql WINDOWS = Sql.of("""
            SELECT coalesce(sum(admitted) FILTER (WHERE started_at > clock_timestamp() - interval '1 minute'), 0),
                   coalesce(sum(admitted) FILTER (WHERE started_at > clock_timestamp() - interval '5 minutes'), 0),
                   coalesce(sum(admitted), 0),
                   coalesce(sum(busy_ms) FILTER (WHERE started_at > clock_timestamp() - interval '5 minutes'), 0),
                   coalesce(sum(duration_ms) FILTER (WHERE started_at > clock_timestamp() - interval '5 minutes'), 0),
                   coalesce(sum(completed), 0), coalesce(sum(failed), 0)
              FROM dispatch.tick_samples
             WHERE started_at > clock_timestamp() - interval '15 minutes'
            """);

    // Every minute of the last 30 (the current one last), each with the pending count its last tick sample saw, or
    // null when no tick ran in it: a chart's time axis is then true, and a gap shows as one.
    private static final Sql TREND = Sql.of("""
            WITH minutes AS (
                SELECT generate_series(date_trunc('minute', clock_timestamp()) - interval '29 minutes',
                                       date_trunc('minute', clock_timestamp()), interval '1 minute') AS minute),
            sampled AS (
                SELECT date_trunc('minute', started_at) AS minute, (array_agg(pending ORDER BY started_at DESC))[1] AS pending
                  FROM dispatch.tick_samples
                 WHERE started_at >= date_trunc('minute', clock_timestamp()) - interval '29 minutes'
                 GROUP BY 1)
            SELECT m.minute, s.pending FROM minutes m LEFT JOIN sampled s ON s.minute = m.minute ORDER BY m.minute
            """);

    // Named limits' use (ADR 0049): slots in flight per limit key, off the in-flight rows that hold any (their partial
    // GIN index); and the buckets as last charged.
    private static final Sql LIMIT_IN_FLIGHT = Sql.of("""
            SELECT k, sum(f.cost) FROM dispatch.inflight_jobs f, unnest(f.limit_keys) AS k
             WHERE f.limit_keys IS NOT NULL GROUP BY k
            """);

    private static final Sql LIMIT_BUCKETS = Sql.of("""
            SELECT limit_name, limit_key, tokens FROM dispatch.limit_state WHERE tokens IS NOT NULL
            """);

    private static final Sql DENIAL_REASONS = Sql.of("""
            SELECT d.key, sum(d.value::bigint)
              FROM dispatch.tick_samples s, jsonb_each_text(s.denied) d
             WHERE s.started_at > clock_timestamp() - interval '15 minutes'
             GROUP BY d.key ORDER BY 2 DESC, 1
            """);

    private static final Sql POLICY_TOTALS = Sql.of("""
            SELECT policy_name, count(*) FILTER (WHERE lane = ''), coalesce(sum(pending_count), 0), coalesce(sum(parked_count), 0)
              FROM dispatch.partitions GROUP BY policy_name
            """);

    private static final Sql POLICY_IN_FLIGHT = Sql.of("""
            SELECT policy_name, count(*) FROM dispatch.inflight_jobs GROUP BY policy_name
            """);

    // Admissions of the last 15 minutes by lane (through their partition), and how many of them in the
    // last 5 and the last 1.
    private static final Sql LANE_ADMISSIONS = Sql.of("""
            SELECT p.lane,
                   count(*) FILTER (WHERE a.admitted_at > clock_timestamp() - interval '1 minute'),
                   count(*) FILTER (WHERE a.admitted_at > clock_timestamp() - interval '5 minutes'),
                   count(*)
              FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id
             WHERE p.policy_name = :policy AND a.admitted_at > clock_timestamp() - interval '15 minutes'
             GROUP BY p.lane
            """);

    private static final Sql LANE_IN_FLIGHT = Sql.of("""
            SELECT lane, count(*) FROM dispatch.inflight_jobs WHERE policy_name = :policy GROUP BY lane
            """);

    private static final Sql POLICY_ADMITTED_5M = Sql.of("""
            SELECT p.policy_name, count(*) FROM dispatch.admissions a
              JOIN dispatch.partitions p ON p.id = a.partition_id
             WHERE a.admitted_at > clock_timestamp() - interval '5 minutes'
             GROUP BY p.policy_name
            """);

    private static final Sql POLICY_DENIALS = Sql.template("""
            SELECT last_deny_reason, count(*) FROM dispatch.partitions
             WHERE policy_name = :policy AND {{deniedNow}}
             GROUP BY 1 ORDER BY 2 DESC, 1
            """).with("deniedNow", DENIED_NOW);

    // A policy's busiest keys (its lanes added up), each linking to its key's own row: {{figure}} is a column.
    private static final Sql TOP = Sql.template("""
            SELECT coalesce(min(id) FILTER (WHERE lane = ''), min(id)) AS id, partition_key, sum({{figure}}) AS figure
              FROM dispatch.partitions WHERE policy_name = :policy
             GROUP BY partition_key HAVING sum({{figure}}) > 0 ORDER BY figure DESC, id LIMIT :limit
            """);

    private static final Sql TOP_PENDING = TOP.with("figure", "pending_count");

    private static final Sql TOP_ADMITTED = TOP.with("figure", "total_admitted");

    // The context and gate state the partition's gates work on: its key's gate row's (its own outside lanes).
    private static final Sql PARTITION_STATE = Sql.of("""
            SELECT g.context::text, g.gate_state::text, g.id, g.overrides::text,
                   (SELECT lane_overrides::text FROM dispatch.policies WHERE name = p.policy_name)
              FROM dispatch.partitions p
              JOIN dispatch.partitions g ON g.policy_name = p.policy_name AND g.partition_key = p.partition_key AND g.lane = ''
             WHERE p.id = :partition
            """);

    private static final Sql PARTITION_IN_FLIGHT = Sql.of("SELECT count(*) FROM " + PartitionBrowser.ROWS_OF_PAGE
            + " JOIN dispatch.inflight_jobs i ON i.partition_id = p.id WHERE me.id = :partition");

    private static final Sql PAUSED_BY_JOB = Sql.of("""
            SELECT paused_until, pause_reason, paused_by FROM dispatch.partitions
             WHERE id = :partition AND paused_until > clock_timestamp()
            """);

    private static final Sql ADAPTIVE = Sql.of("""
            SELECT gate_id, current_max, ewma_lag_ms, consecutive_failures FROM dispatch.adaptive_stats WHERE partition_id = :partition
            """);

    // Parked jobs first (they need an operator), then the waiting ones in admission order, then those
    // scheduled for later, earliest first.
    // A key's own row (lane '') shows the jobs of all its lanes, as the partitions page shows its lanes as columns.
    private static final Sql STAGED = Sql.template("""
            SELECT s.id, s.job_name, s.job_parameters::text, s.staged_at, s.admit_attempts, s.parked_at, s.last_error,
                   s.restart_of, s.priority, s.due_at, s.attempt, p.lane
              FROM {{rows}}
              JOIN dispatch.staged_jobs s ON s.partition_id = p.id
             WHERE me.id = :partition
             ORDER BY s.parked_at IS NULL, s.due_at IS NOT NULL, s.priority DESC, s.due_at, s.ordered_at, s.id LIMIT :limit
            """).with("rows", PartitionBrowser.ROWS_OF_PAGE);

    // Over the rows the page stands for, as its scheduled count is (a key's: all its lanes').
    private static final Sql NEXT_DUE = Sql.of("SELECT min(s.due_at) FROM " + PartitionBrowser.ROWS_OF_PAGE
            + " JOIN dispatch.staged_jobs s ON s.partition_id = p.id WHERE me.id = :partition AND s.due_at IS NOT NULL");

    // The pattern is a bound parameter; '%' and '_' in the user's text are escaped by the caller. Episodes
    // (V19), newest first off denial_history_last_idx; the partition as it stands now beside each.
    private static final Sql DENIALS = Sql.of("""
            SELECT h.partition_id, h.policy_name, h.partition_key, h.reason, h.last_at,
                   CASE WHEN p.denial_history_id = h.id AND p.next_eligible_at > clock_timestamp() THEN p.next_eligible_at END,
                   coalesce(p.pending_count, 0), h.started_at, h.denials, p.lane
              FROM dispatch.denial_history h
              LEFT JOIN dispatch.partitions p ON p.id = h.partition_id
             WHERE h.last_at > clock_timestamp() - make_interval(secs => :withinSeconds)
               AND (:policy::text IS NULL OR h.policy_name = :policy)
               AND (:reason::text IS NULL OR h.reason = :reason)
               AND (:keyPattern::text IS NULL OR h.partition_key ILIKE :keyPattern ESCAPE '\\')
             ORDER BY h.last_at DESC, h.id DESC
             LIMIT :limit
            """);

    // The partitions denied now, each with its current episode (when the history has recorded it yet): as many rows
    // as the dashboard counts.
    private static final Sql DENIED_NOW_ROWS = Sql.template("""
            SELECT p.id, p.policy_name, p.partition_key, p.last_deny_reason, coalesce(h.last_at, p.last_denied_at), p.next_eligible_at,
                   p.pending_count, coalesce(h.started_at, p.last_denied_at), coalesce(h.denials, 1), p.lane
              FROM dispatch.partitions p
              LEFT JOIN dispatch.denial_history h ON h.id = p.denial_history_id
             WHERE {{deniedNow}} AND p.policy_name = ANY (CAST(:declared AS text[]))
               AND (:policy::text IS NULL OR p.policy_name = :policy)
               AND (:reason::text IS NULL OR p.last_deny_reason = :reason)
               AND (:keyPattern::text IS NULL OR p.partition_key ILIKE :keyPattern ESCAPE '\\')
             ORDER BY p.next_eligible_at DESC, p.id DESC
             LIMIT :limit
            """).with("deniedNow", DENIED_NOW.replace("next_eligible_at", "p.next_eligible_at").replace("last_deny_reason", "p.last_deny_reason"));

    // A policy's or a partition's minutes with activity in the window (the caller fills the others with 0).
    private static final Sql HISTORY = Sql.template("""
            SELECT minute, sum(admitted), sum(completed), sum(failed) FROM dispatch.partition_minutes
             WHERE {{key}} AND minute > date_trunc('minute', clock_timestamp()) - make_interval(mins => :minutes)
             GROUP BY minute ORDER BY minute
            """);
    private static final Sql POLICY_HISTORY = HISTORY.with("key", "policy_name = :policy");
    private static final Sql PARTITION_HISTORY = HISTORY.with("key", "partition_id = :partition");

    @Inject
    Jdbc jdbc;

    /** Slots in flight per encoded limit key ({@code name}, {@code name/key}). */
    public java.util.Map<String, Long> limitInFlight() {
        java.util.Map<String, Long> byKey = new java.util.HashMap<>();
        jdbc.query(LIMIT_IN_FLIGHT, Params.of(), rs -> byKey.put(rs.getString(1), rs.getLong(2)));
        return byKey;
    }

    /** Tokens per encoded limit key, as last charged. */
    public java.util.Map<String, Double> limitTokens() {
        java.util.Map<String, Double> byKey = new java.util.HashMap<>();
        jdbc.query(LIMIT_BUCKETS, Params.of(), rs -> byKey.put(rs.getString(2).isEmpty() ? rs.getString(1)
                : rs.getString(1) + "/" + rs.getString(2), rs.getDouble(3)));
        return byKey;
    }

    /** Of the declared policies: {pending, parked, admitted total, denied partitions, partitions}; {in flight, dead} of all */
    public long[] totals(List<String> declared) {
        long[] t = jdbc.query(TOTALS, Params.of().texts("declared", declared), rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3),
                rs.getLong(4), rs.getLong(5), 0, 0}).get(0);
        t[5] = jdbc.query(IN_FLIGHT, Params.of(), rs -> rs.getLong(1)).get(0);
        t[6] = jdbc.query(DEAD, Params.of(), rs -> rs.getLong(1)).get(0);
        return t;
    }

    /** {expired, dropped or replaced} in the last 24 hours. */
    public long[] discarded() {
        return jdbc.query(DISCARDED, Params.of(), rs -> new long[] {rs.getLong(1), rs.getLong(2)}).get(0);
    }

    /** {admitted 1 min, 5 min, 15 min, busy ms 5 min, tick ms 5 min, completed 15 min, failed 15 min} */
    public long[] windows() {
        return jdbc.query(WINDOWS, Params.of(), rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3),
                rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7)}).get(0);
    }

    // Shards with waiting partitions that no live node names (ADR 0014); a live node without shards
    // admits every one. Live: not gone, by the test recovery uses (NodeRepository.withGone).
    private static final Sql UNSERVED_SHARDS = NodeRepository.withGone(Sql.template("""
            WITH live AS (
                SELECT n.shards FROM dispatch.nodes n WHERE NOT {{gone}})
            SELECT p.shard, count(*), sum(p.pending_count)
              FROM dispatch.partitions p
             WHERE p.pending_count > 0 AND p.shard <> ''
               AND NOT EXISTS (SELECT 1 FROM live WHERE live.shards IS NULL OR p.shard = ANY (live.shards))
             GROUP BY p.shard
             ORDER BY p.shard
             LIMIT 20
            """));

    /** Shards with waiting work that no live node admits, up to 20 (liveness as recovery judges it). */
    public List<UnservedShard> unservedShards(java.time.Duration staleAfter, java.time.Duration grace) {
        return jdbc.query(UNSERVED_SHARDS, NodeRepository.gone(Params.of(), staleAfter, grace),
                rs -> new UnservedShard(rs.getString(1), rs.getLong(2), rs.getLong(3)));
    }

    public List<TrendPoint> pendingTrend() {
        return jdbc.query(TREND, Params.of(), rs -> new TrendPoint(rs.getTimestamp(1).toInstant(), rs.getObject(2, Long.class)));
    }

    /** The declared policies' partitions denied now, per reason: they sum to {@link #totals}' denied partitions. */
    public List<KeyCount> deniedNow(List<String> declared) {
        return jdbc.query(DENIED_NOW_BY_REASON, Params.of().texts("declared", declared), rs -> new KeyCount(rs.getString(1), rs.getLong(2)));
    }

    /** Policies with partitions that {@code declared} does not name: {partitions, jobs staged} each. */
    public Map<String, long[]> undeclared(List<String> declared) {
        Map<String, long[]> m = new java.util.TreeMap<>();
        jdbc.query(UNDECLARED, Params.of().texts("declared", declared), rs -> m.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        return m;
    }

    public List<KeyCount> denialReasons() {
        return jdbc.query(DENIAL_REASONS, Params.of(), rs -> new KeyCount(rs.getString(1), rs.getLong(2)));
    }

    /** By policy: {partitions, pending, parked}. */
    public Map<String, long[]> policyTotals() {
        Map<String, long[]> totals = new HashMap<>();
        jdbc.query(POLICY_TOTALS, Params.of(),
                rs -> totals.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)}));
        return totals;
    }

    public Map<String, Long> policyInFlight() {
        return byPolicy(POLICY_IN_FLIGHT);
    }

    public Map<String, Long> policyAdmittedLast5Minutes() {
        return byPolicy(POLICY_ADMITTED_5M);
    }

    /** By lane: admissions of the policy over {1, 5, 15} minutes. */
    public Map<String, long[]> laneAdmissions(String policy) {
        Map<String, long[]> byLane = new HashMap<>();
        jdbc.query(LANE_ADMISSIONS, Params.of().text("policy", policy),
                rs -> byLane.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)}));
        return byLane;
    }

    public Map<String, Long> laneInFlight(String policy) {
        Map<String, Long> byLane = new HashMap<>();
        jdbc.query(LANE_IN_FLIGHT, Params.of().text("policy", policy), rs -> byLane.put(rs.getString(1), rs.getLong(2)));
        return byLane;
    }

    public List<KeyCount> policyDenials(String policy) {
        return jdbc.query(POLICY_DENIALS, Params.of().text("policy", policy), rs -> new KeyCount(rs.getString(1), rs.getLong(2)));
    }

    public List<TopPartition> topPending(String policy, int limit) {
        return top(TOP_PENDING, policy, limit);
    }

    public List<TopPartition> topAdmitted(String policy, int limit) {
        return top(TOP_ADMITTED, policy, limit);
    }

    /** {context json, gate state json, gate row id, its key's gate overrides, its policy's lane overrides} of the partition's gates, or null when the partition is gone. */
    public String[] partitionState(long partitionId) {
        return jdbc.query(PARTITION_STATE, Params.of().bigint("partition", partitionId),
                rs -> new String[] {rs.getString(1), rs.getString(2), Long.toString(rs.getLong(3)), rs.getString(4), rs.getString(5)})
                .stream().findFirst().orElse(null);
    }

    /** A pause a job put on the partition (ADR 0033), while it lasts. */
    public java.util.Optional<JobPause> pausedByJob(long partitionId) {
        return jdbc.query(PAUSED_BY_JOB, Params.of().bigint("partition", partitionId),
                rs -> new JobPause(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getLong(3))).stream().findFirst();
    }

    public long partitionInFlight(long partitionId) {
        return jdbc.query(PARTITION_IN_FLIGHT, Params.of().bigint("partition", partitionId), rs -> rs.getLong(1)).get(0);
    }

    /** By adaptive gate id: {current max, ewma lag ms, consecutive failures}. */
    public Map<String, double[]> adaptive(long partitionId) {
        Map<String, double[]> states = new HashMap<>();
        jdbc.query(ADAPTIVE, Params.of().bigint("partition", partitionId),
                rs -> states.put(rs.getString(1), new double[] {rs.getInt(2), rs.getDouble(3), rs.getInt(4)}));
        return states;
    }

    public List<StagedJobView> staged(long partitionId, int limit) {
        return jdbc.query(STAGED, Params.of().bigint("partition", partitionId).integer("limit", limit),
                rs -> new StagedJobView(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant(),
                        rs.getInt(5), Jdbc.instant(rs.getTimestamp(6)), rs.getString(7), rs.getObject(8, Long.class),
                        rs.getInt(9), Jdbc.instant(rs.getTimestamp(10)), rs.getInt(11), rs.getString(12)));
    }

    /** When the partition's earliest job scheduled for later is due; null when none is. */
    public java.time.Instant nextDue(long partitionId) {
        return jdbc.query(NEXT_DUE, Params.of().bigint("partition", partitionId), rs -> Jdbc.instant(rs.getTimestamp(1))).get(0);
    }

    /** The declared policies' partitions denied now (as many as the dashboard counts, up to {@code limit}). */
    public List<DenialRow> deniedNow(List<String> declared, String policy, String reason, String keyPattern, int limit) {
        return jdbc.query(DENIED_NOW_ROWS, Params.of().texts("declared", declared).text("policy", policy).text("reason", reason)
                        .text("keyPattern", keyPattern).integer("limit", limit), this::denialRow);
    }

    private DenialRow denialRow(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new DenialRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                Jdbc.instant(rs.getTimestamp(5)), Jdbc.instant(rs.getTimestamp(6)), rs.getLong(7),
                Jdbc.instant(rs.getTimestamp(8)), rs.getInt(9), rs.getString(10));
    }

    public List<DenialRow> denials(long withinSeconds, String policy, String reason, String keyPattern, int limit) {
        return jdbc.query(DENIALS, Params.of().bigint("withinSeconds", withinSeconds).text("policy", policy).text("reason", reason)
                        .text("keyPattern", keyPattern).integer("limit", limit), this::denialRow);
    }

    /** A policy's minutes with activity over the last {@code minutes}. */
    public List<io.dispatchpolicy.console.monitoring.HistoryPoint> policyHistory(String policy, int minutes) {
        return history(POLICY_HISTORY, Params.of().text("policy", policy), minutes);
    }

    /** A partition's minutes with activity over the last {@code minutes}. */
    public List<io.dispatchpolicy.console.monitoring.HistoryPoint> partitionHistory(long partitionId, int minutes) {
        return history(PARTITION_HISTORY, Params.of().bigint("partition", partitionId), minutes);
    }

    private List<io.dispatchpolicy.console.monitoring.HistoryPoint> history(Sql sql, Params key, int minutes) {
        return jdbc.query(sql, key.integer("minutes", minutes),
                rs -> new io.dispatchpolicy.console.monitoring.HistoryPoint(rs.getTimestamp(1).toInstant(), rs.getLong(2),
                        rs.getLong(3), rs.getLong(4)));
    }

    private List<TopPartition> top(Sql sql, String policy, int limit) {
        return jdbc.query(sql, Params.of().text("policy", policy).integer("limit", limit),
                rs -> new TopPartition(rs.getLong(1), rs.getString(2), rs.getLong(3)));
    }

    private Map<String, Long> byPolicy(Sql sql) {
        Map<String, Long> counts = new HashMap<>();
        jdbc.query(sql, Params.of(), rs -> counts.put(rs.getString(1), rs.getLong(2)));
        return counts;
    }
}
