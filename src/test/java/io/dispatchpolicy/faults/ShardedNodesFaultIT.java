package io.dispatchpolicy.faults;

import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.check.Observations;
import io.dispatchpolicy.faults.check.Verdict;
import io.dispatchpolicy.faults.harness.FaultRun;
import io.dispatchpolicy.faults.harness.FaultSettings;
import io.dispatchpolicy.faults.harness.ServerSpec;
import io.dispatchpolicy.faults.harness.Workload;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (g) Sharded policies are admitted only by their nodes. Node {@code a} runs with
 * {@code dispatch.shards=even}, node {@code b} with {@code dispatch.shards=odd}; the policy
 * {@code fault-sharded} partitions by tenant and shards by the tenant number's parity. A storm of its
 * jobs over {@code fault.shards.tenants} tenants and one of the unsharded storm's {@code fault-job}
 * ({@code fault-storm}, no {@code shardBy}) go in through both nodes. No fault.
 *
 * <p>Passes when, besides the invariants of both (every submission one COMPLETED execution, none lost,
 * nothing left, caps kept): every admission of an even tenant's job was made by {@code a}'s boot and
 * every odd one by {@code b}'s ({@code dispatch.admissions.node_id}, the tenant taken from JBeret's job
 * parameters of the admitted execution and matched with the partition's key); the sharded policy's
 * partitions carry their shard and the unsharded one's {@code ''}; and each node admitted at least one
 * job of the unsharded policy (every node admits it).
 *
 * <p>Then scenario (i) on the same two servers, while (g)'s storms still run: {@link SuspendedNode}, a
 * {@code :suspend} of {@code a} for 10 s. The checks of (g) hold through it: the suspend stops b's running
 * executions too (through the shared repository), and b runs them again — only its shard's.
 */
class ShardedNodesFaultIT {

    private static final String A = "a";
    private static final String B = "b";

    @Test
    void eachShardIsAdmittedOnlyByItsNodeAndUnshardedWorkByBothAlsoThroughASuspendOfOne() throws SQLException {
        FaultSettings settings = FaultSettings.fromSystemProperties().withStormOf("fault.shards", 300, "100-500");
        int tenants = Integer.getInteger("fault.shards.tenants", 10);
        List<ServerSpec> specs = List.of(
                ServerSpec.named(B, 100).withNodeName("fault-node-b").withProperties("-Ddispatch.shards=" + FaultPolicies.ODD),
                ServerSpec.named(A, 0).withNodeName("fault-node-a").withProperties("-Ddispatch.shards=" + FaultPolicies.EVEN));
        try (FaultRun run = FaultRun.start("g-sharded-nodes",
                "node a admits shard even, b shard odd: a policy sharded by tenant parity and an unsharded one, both"
                        + " submitted through both nodes; then (i): another storm of the sharded one, :suspend of a for 10 s,"
                        + " then :resume",
                settings, specs, List.of(Workload.SHARDED, Workload.STORM))) {
            Map<String, UUID> boots = new LinkedHashMap<>();
            boots.put(A, run.bootId(A));
            boots.put(B, run.bootId(B));
            run.note("bootIds", boots.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                    e -> e.getValue().toString(), (x, y) -> x, LinkedHashMap::new)));
            run.note("shardTenants", tenants);

            run.submitStormThrough(Workload.SHARDED, settings.jobs(), tenants, settings.sleepMs(), A, B);
            run.submitStormThrough(Workload.STORM, settings.jobs(), tenants, settings.sleepMs(), A, B);
            SuspendedNode.suspendOfAHoldsItsAdmissionsWhileBKeepsAdmitting(run, A, B);

            Map<String, Object> figures = new LinkedHashMap<>();
            run.note("admissions", figures);
            run.checkAlso(guarded("sharded admissions by node", () -> shardedAdmittedByTheirNodes(run, boots, figures)));
            run.checkAlso(guarded("partition shards", () -> partitionsCarryTheirShard(run, figures)));
            run.checkAlso(guarded("unsharded admissions by node", () -> unshardedAdmittedByBoth(run, boots, figures)));

            Verdict verdict = run.drainAndCheck(run.settings().drain());
            assertTrue(verdict.holds(), verdict::describe);
        }
    }

    /** Every admission of the sharded policy was made by the boot of the node that admits its tenant's shard. */
    private static Optional<String> shardedAdmittedByTheirNodes(FaultRun run, Map<String, UUID> boots, Map<String, Object> figures) {
        // An admission's execution carries the submission's job parameters: the tenant as submitted.
        List<Admission> admissions = admissions(run, FaultPolicies.SHARDED_POLICY);
        Map<String, Map<String, Long>> byShardAndNode = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        for (Admission adm : admissions) {
            String tenant = adm.tenant() != null ? adm.tenant() : adm.partitionKey();
            String shard = FaultPolicies.shardOf(tenant);
            UUID expected = boots.get(FaultPolicies.EVEN.equals(shard) ? A : B);
            byShardAndNode.computeIfAbsent(shard, s -> new TreeMap<>()).merge(label(boots, adm.node()), 1L, Long::sum);
            if (!expected.equals(adm.node())) {
                wrong.add("submission " + adm.submissionId() + " of tenant " + tenant + " (" + shard + ") admitted by "
                        + label(boots, adm.node()));
            } else if (adm.tenant() != null && !adm.tenant().equals(adm.partitionKey())) {
                wrong.add("submission " + adm.submissionId() + " of tenant " + adm.tenant() + " admitted in partition "
                        + adm.partitionKey());
            }
        }
        figures.put(FaultPolicies.SHARDED_POLICY + " by shard and node", byShardAndNode);
        if (admissions.size() < run.settings().jobs()) {
            wrong.add(0, "only " + admissions.size() + " admissions of " + run.settings().jobs() + " sharded submissions");
        }
        return wrong.isEmpty() ? Optional.empty() : Optional.of(wrong.size() + " sharded admissions not by their shard's node: "
                + wrong.stream().limit(10).collect(Collectors.joining("; ")));
    }

    /** The sharded policy's partitions carry their tenant's shard; the unsharded one's ''. */
    private static Optional<String> partitionsCarryTheirShard(FaultRun run, Map<String, Object> figures) {
        List<String> wrong = new ArrayList<>();
        Map<String, String> shards = new TreeMap<>();
        query(run, "SELECT policy_name, partition_key, shard FROM dispatch.partitions WHERE policy_name IN (?, ?)"
                + " ORDER BY policy_name, partition_key", rs -> {
            String policy = rs.getString(1);
            String key = rs.getString(2);
            String shard = rs.getString(3);
            shards.put(policy + "/" + key, shard);
            String expected = FaultPolicies.SHARDED_POLICY.equals(policy) ? FaultPolicies.shardOf(key) : "";
            if (!expected.equals(shard)) {
                wrong.add(policy + "/" + key + " has shard '" + shard + "', not '" + expected + "'");
            }
            return null;
        }, FaultPolicies.SHARDED_POLICY, FaultPolicies.POLICY);
        figures.put("partition shards", shards);
        return wrong.isEmpty() ? Optional.empty() : Optional.of("partitions with the wrong shard: " + wrong);
    }

    /** Every node admits the unsharded policy: each admitted some. */
    private static Optional<String> unshardedAdmittedByBoth(FaultRun run, Map<String, UUID> boots, Map<String, Object> figures) {
        Map<String, Long> byNode = new TreeMap<>();
        admissions(run, FaultPolicies.POLICY).forEach(adm -> byNode.merge(label(boots, adm.node()), 1L, Long::sum));
        figures.put(FaultPolicies.POLICY + " by node", byNode);
        List<String> idle = boots.keySet().stream().filter(node -> byNode.getOrDefault(node, 0L) == 0).toList();
        return idle.isEmpty() ? Optional.empty()
                : Optional.of("the unsharded policy was admitted by no boot of " + idle + ": " + byNode);
    }

    record Admission(long submissionId, String partitionKey, UUID node, String tenant) {
    }

    private static List<Admission> admissions(FaultRun run, String policy) {
        return query(run, "SELECT a.submission_id, p.partition_key, a.node_id, e.jobparameters FROM dispatch.admissions a"
                + " JOIN dispatch.partitions p ON p.id = a.partition_id"
                + " LEFT JOIN job_execution e ON e.jobexecutionid = a.execution_id"
                + " WHERE p.policy_name = ? ORDER BY a.submission_id",
                rs -> new Admission(rs.getLong(1), rs.getString(2), rs.getObject(3, UUID.class), tenantOf(rs.getString(4))), policy);
    }

    /** The {@code tenant} line of JBeret's JOBPARAMETERS column. */
    private static String tenantOf(String parameters) {
        if (parameters == null) {
            return null;
        }
        for (String line : parameters.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).strip().equals("tenant")) {
                return line.substring(eq + 1).strip();
            }
        }
        return null;
    }

    private static String label(Map<String, UUID> boots, UUID node) {
        return boots.entrySet().stream().filter(e -> e.getValue().equals(node)).map(Map.Entry::getKey).findFirst()
                .orElse("unknown boot " + node);
    }

    private static <T> List<T> query(FaultRun run, String sql, Observations.Row<T> row, Object... args) {
        return Observations.query(run.database()::connect, sql, row, args);
    }


    /** A check whose query failed (a schema without sharding's columns) is a violation, not a lost result. */
    private static java.util.function.Supplier<Optional<String>> guarded(String what,
                                                                          java.util.function.Supplier<Optional<String>> check) {
        return () -> {
            try {
                return check.get();
            } catch (RuntimeException e) {
                return Optional.of(what + ": could not be checked: " + e + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            }
        };
    }
}
