package io.dispatchpolicy.staging;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Uniqueness and debounce keys (ADR 0036): a row per policy, kind and key names the submission that holds it.
 * The database decides between concurrent submitters on any node, in the caller's transaction:
 * <ol>
 * <li>every key of the call is INSERTed with a fresh submission id; a new key is won (its row is the lock);</li>
 * <li>a key that exists is locked (keys in code-point order: no two calls wait on each other in a cycle);</li>
 * <li>only then, in a new statement — so its snapshot sees whatever the holder's transaction committed before
 *     it let the lock go — is the holder asked whether it still holds the key; if not, the key is taken over in
 *     place with a fresh id.</li>
 * </ol>
 * Asking in the same statement as the lock would read the holder's rows with a snapshot from before the lock:
 * a holder staged meanwhile would look gone and its key be taken twice.
 */
@ApplicationScoped
public class SubmissionKeys {

    /** The kinds of key. */
    public enum Kind {
        UNIQUE("unique"), DEBOUNCE("debounce");

        final String column;

        Kind(String column) {
            this.column = column;
        }
    }

    // Ids are drawn in the order the keys were first given (a call's jobs keep their order in their
    // partition), rows inserted in code-point order of their keys (the order every caller locks them in).
    private static final Sql CLAIM = Sql.of("""
            WITH given AS (
                SELECT * FROM unnest(:keys::text[], :ranks::int[]) WITH ORDINALITY AS t(k, rank, ord)),
            numbered AS MATERIALIZED (
                SELECT g.k, g.ord, nextval('dispatch.submission_id_seq') AS id FROM (SELECT * FROM given ORDER BY rank) g)
            INSERT INTO dispatch.submission_keys AS k (policy_name, kind, key, submission_id, covers, window_ms, max_wait_ms)
            SELECT :policy, :kind, n.k, n.id, :covers, :windowMs, :maxWaitMs FROM numbered n ORDER BY n.ord
            ON CONFLICT (policy_name, kind, key) DO NOTHING
            RETURNING k.key, k.submission_id
            """);

    // One key: the common single submission, without the arrays.
    private static final Sql CLAIM_ONE = Sql.of("""
            INSERT INTO dispatch.submission_keys AS k (policy_name, kind, key, submission_id, covers, window_ms, max_wait_ms)
            VALUES (:policy, :kind, :key, nextval('dispatch.submission_id_seq'), :covers, :windowMs, :maxWaitMs)
            ON CONFLICT (policy_name, kind, key) DO NOTHING
            RETURNING k.key, k.submission_id
            """);

    private static final Sql LOCK = Sql.of("""
            SELECT key FROM dispatch.submission_keys
             WHERE policy_name = :policy AND kind = :kind AND key = ANY (:keys::text[])
             ORDER BY key COLLATE "C"
               FOR UPDATE
            """);

    // Whether each locked key's holder still holds it: staged, running, or completed within its window, as
    // the key covers (1, 2, 4). Running is found through the admission's execution id (a retry's is the newest).
    private static final Sql HELD = Sql.of("""
            SELECT k.key, k.submission_id FROM dispatch.submission_keys k
             WHERE k.policy_name = :policy AND k.kind = 'unique' AND k.key = ANY (:keys::text[])
               AND ((k.covers & 1 <> 0 AND EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = k.submission_id))
                 OR (k.covers & 2 <> 0 AND EXISTS (
                        SELECT 1 FROM dispatch.admissions a JOIN dispatch.inflight_jobs i ON i.execution_id = a.execution_id
                         WHERE a.submission_id = k.submission_id))
                 OR (k.covers & 4 <> 0 AND EXISTS (
                        SELECT 1 FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id
                         WHERE a.submission_id = k.submission_id AND e.batchstatus = 'COMPLETED'
                           AND e.endtime > clock_timestamp() - make_interval(secs => k.window_ms / 1000.0))))
            """);

    // A debounced holder still staged, not yet due and in the same partition takes the newest parameters and
    // is pushed back: a period from now, never past its key's first submission + max wait.
    // Its deadline is the newest submission's too, counted from the new due time as staging counts it.
    private static final Sql DEBOUNCE = Sql.of("""
            UPDATE dispatch.staged_jobs s
               SET job_parameters = :parameters::jsonb,
                   due_at = n.due,
                   expires_at = CASE WHEN :expireAtMs::bigint IS NOT NULL THEN to_timestamp(:expireAtMs::bigint / 1000.0)
                                     WHEN :expireAfterMs::bigint IS NOT NULL
                                     THEN n.due + make_interval(secs => :expireAfterMs::bigint / 1000.0) END
              FROM dispatch.submission_keys k
             CROSS JOIN LATERAL (SELECT least(clock_timestamp() + make_interval(secs => :periodMs::bigint / 1000.0),
                                              k.held_since + make_interval(secs => k.max_wait_ms / 1000.0)) AS due) n,
                   dispatch.partitions p
             WHERE k.policy_name = :policy AND k.kind = 'debounce' AND k.key = :key
               AND s.id = k.submission_id AND s.due_at > clock_timestamp() AND NOT s.bypass
               AND p.id = s.partition_id AND p.partition_key = :partitionKey AND p.lane = :lane
            RETURNING s.id
            """);

    private static final Sql TAKE_OVER = Sql.of("""
            UPDATE dispatch.submission_keys
               SET submission_id = nextval('dispatch.submission_id_seq'), held_since = clock_timestamp(), covers = :covers,
                   window_ms = :windowMs, max_wait_ms = :maxWaitMs, absorbed = 0, last_absorbed_at = NULL
             WHERE policy_name = :policy AND kind = :kind AND key = :key
            RETURNING submission_id
            """);

    private static final Sql ABSORBED = Sql.of("""
            UPDATE dispatch.submission_keys k SET absorbed = k.absorbed + a.n, last_absorbed_at = clock_timestamp()
              FROM unnest(:keys::text[], :counts::int[]) AS a(key, n)
             WHERE k.policy_name = :policy AND k.kind = :kind AND k.key = a.key
            """);

    @Inject
    Jdbc jdbc;

    /**
     * What a key's claim gave: the submission id the job is staged under when {@code won}, else the holder's id
     * (a duplicate, or a debounced job that took its parameters).
     */
    public record Claim(long submissionId, boolean won) {
    }

    /** How a key is held: for uniqueness, the states covered and the window; for debounce, the longest wait. */
    public record Terms(int covers, Long windowMs, Long maxWaitMs) {
    }

    /**
     * Claims uniqueness keys, in the caller's transaction.
     *
     * @param keys  distinct keys, in the order of their first job in the call
     * @param extra per key, how many more jobs of the call had it (absorbed by whichever submission holds it)
     * @return per key, its claim
     */
    public Map<String, Claim> claimUnique(String policy, List<String> keys, Map<String, Integer> extra, Terms terms) {
        Map<String, Claim> claims = new LinkedHashMap<>();
        List<String> lost = insert(policy, Kind.UNIQUE, keys, terms, claims);
        if (!lost.isEmpty()) {
            lock(policy, Kind.UNIQUE, lost);
            Map<String, Long> held = new HashMap<>();
            jdbc.query(HELD, Params.of().text("policy", policy).texts("keys", lost), rs -> held.put(rs.getString(1), rs.getLong(2)));
            for (String key : lost) {
                Long holder = held.get(key);
                claims.put(key, holder != null ? new Claim(holder, false) : takeOver(policy, Kind.UNIQUE, key, terms));
            }
        }
        absorb(policy, Kind.UNIQUE, keys, k -> extra.getOrDefault(k, 0) + (claims.get(k).won() ? 0 : 1));
        return claims;
    }

    /**
     * Claims a debounce key for one job, in the caller's transaction: while its holder is staged, not yet due
     * and in the same partition, the holder takes these parameters and is pushed back (not won); otherwise the
     * key is the job's (won), to be staged due in {@code periodMs}. The holder takes the submission's deadline too (an instant,
     * or a wait after its new due time), as it takes its parameters.
     */
    public Claim claimDebounce(String policy, String key, String parametersJson, long periodMs, String partitionKey, String lane,
                               Terms terms, Long expireAtMs, Long expireAfterMs) {
        Map<String, Claim> claims = new LinkedHashMap<>();
        if (insert(policy, Kind.DEBOUNCE, List.of(key), terms, claims).isEmpty()) {
            return claims.get(key);
        }
        lock(policy, Kind.DEBOUNCE, List.of(key));
        List<Long> pushed = jdbc.query(DEBOUNCE, Params.of().text("policy", policy).text("key", key).text("parameters", parametersJson)
                .bigint("periodMs", periodMs).text("partitionKey", partitionKey).text("lane", lane)
                .bigint("expireAtMs", expireAtMs).bigint("expireAfterMs", expireAfterMs), rs -> rs.getLong(1));
        if (!pushed.isEmpty()) {
            absorb(policy, Kind.DEBOUNCE, List.of(key), k -> 1);
            return new Claim(pushed.get(0), false);
        }
        return takeOver(policy, Kind.DEBOUNCE, key, terms);
    }

    /** Inserts the keys; the new ones go into {@code claims} as won. @return the keys that already existed */
    private List<String> insert(String policy, Kind kind, List<String> keys, Terms terms, Map<String, Claim> claims) {
        if (keys.size() == 1) {
            jdbc.query(CLAIM_ONE, params(policy, kind, terms).text("key", keys.get(0)),
                    rs -> claims.put(rs.getString(1), new Claim(rs.getLong(2), true)));
            return claims.containsKey(keys.get(0)) ? List.of() : List.of(keys.get(0));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Jdbc.byCodePoint(keys.get(a), keys.get(b)));
        List<String> sorted = order.stream().map(keys::get).toList();
        jdbc.query(CLAIM, params(policy, kind, terms).texts("keys", sorted).ints("ranks", order),
                rs -> claims.put(rs.getString(1), new Claim(rs.getLong(2), true)));
        List<String> lost = new ArrayList<>();
        for (String key : sorted) {
            if (!claims.containsKey(key)) {
                lost.add(key);
            }
        }
        return lost;
    }

    private void lock(String policy, Kind kind, List<String> keys) {
        jdbc.query(LOCK, Params.of().text("policy", policy).text("kind", kind.column).texts("keys", keys), rs -> rs.getString(1));
    }

    private Claim takeOver(String policy, Kind kind, String key, Terms terms) {
        return new Claim(jdbc.query(TAKE_OVER, params(policy, kind, terms).text("key", key), rs -> rs.getLong(1)).get(0), true);
    }

    private void absorb(String policy, Kind kind, List<String> keys, java.util.function.ToIntFunction<String> count) {
        List<String> absorbing = keys.stream().filter(k -> count.applyAsInt(k) > 0).toList();
        if (!absorbing.isEmpty()) {
            jdbc.update(ABSORBED, Params.of().text("policy", policy).text("kind", kind.column).texts("keys", absorbing)
                    .ints("counts", absorbing.stream().map(count::applyAsInt).toList()));
        }
    }

    private static Params params(String policy, Kind kind, Terms terms) {
        return Params.of().text("policy", policy).text("kind", kind.column).integer("covers", terms.covers())
                .bigint("windowMs", terms.windowMs()).bigint("maxWaitMs", terms.maxWaitMs());
    }
}
