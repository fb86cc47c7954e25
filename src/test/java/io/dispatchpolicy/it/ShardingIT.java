package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.console.monitoring.Hint;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.domain.shard.ShardScope;
import io.dispatchpolicy.node.ThisNode;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Sharding on one node (ADR 0014): with {@code dispatch.shards} the node's tick admits only its shards'
 * partitions and those of unsharded policies; a shard nobody admits shows on the dashboard; the setting
 * is read live, and a bad live value keeps what the node admitted. Two nodes with disjoint shards:
 * the fault suite's ShardedNodesFaultIT.
 */
class ShardingIT extends EngineTest {

    private static final String SHARDED = "it-sharded";
    private static final String UNSHARDED = "it-unsharded";

    @Inject
    ThisNode node;

    @Inject
    Monitoring monitoring;

    @Test
    void aNodeAdmitsOnlyItsShardsAndEveryUnshardedPolicy() {
        set("dispatch.shards", "even");
        stage(SHARDED, "shard-even-1", 3, "shard", "even");
        stage(SHARDED, "shard-even-2", 2, "shard", "even");
        stage(SHARDED, "shard-odd-1", 4, "shard", "odd");
        stage(UNSHARDED, "shard-plain-1", 2);
        assertThat(db.strings("SELECT partition_key || '=' || shard FROM dispatch.partitions WHERE policy_name IN (?, ?) "
                + "AND partition_key IN ('shard-even-1', 'shard-odd-1', 'shard-plain-1') ORDER BY partition_key", SHARDED, UNSHARDED))
                .containsExactly("shard-even-1=even", "shard-odd-1=odd", "shard-plain-1=");

        iterateUntilNothingIsAdmitted();
        assertThat(admitted(SHARDED, "shard-even-1")).isEqualTo(3);
        assertThat(admitted(SHARDED, "shard-even-2")).isEqualTo(2);
        assertThat(admitted(UNSHARDED, "shard-plain-1")).isEqualTo(2);
        assertThat(admitted(SHARDED, "shard-odd-1")).isZero();
        assertThat(pending(SHARDED, "shard-odd-1")).isEqualTo(4);
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id "
                + "WHERE p.policy_name IN (?, ?) AND p.partition_key IN ('shard-even-1', 'shard-even-2', 'shard-plain-1') "
                + "AND a.node_id = ?", SHARDED, UNSHARDED, node.id()))
                .as("admissions recorded with the admitting node").isEqualTo(7);

        // the heartbeat tells the console which shards this node admits; nobody admits 'odd'
        await().atMost(Duration.ofSeconds(30)).until(() -> unservedHints().stream().anyMatch(h -> h.contains("'odd'")));
        assertThat(unservedHints()).contains("Shard 'odd' has 4 jobs waiting in 1 partition and no live node admits it: "
                + "name it in some node's dispatch.shards.");
        assertThat(db.strings("SELECT array_to_string(shards, ',') FROM dispatch.nodes WHERE id = ?", node.id()))
                .containsExactly("even");

        // a bad value written at runtime keeps what the node admitted
        set("dispatch.shards", "even,,odd");
        assertThat(node.shards()).isEqualTo(ShardScope.parse("even"));
        iterateUntilNothingIsAdmitted();
        assertThat(pending(SHARDED, "shard-odd-1")).isEqualTo(4);

        // named by the node now (blanks around names are ignored): admitted
        set("dispatch.shards", " even , odd ");
        iterateUntilNothingIsAdmitted();
        assertThat(admitted(SHARDED, "shard-odd-1")).isEqualTo(4);
        await().atMost(Duration.ofSeconds(30)).until(() -> unservedHints().isEmpty());
    }

    @Test
    void withoutTheSettingANodeAdmitsEveryShard() {
        set("dispatch.shards", "*");
        assertThat(node.shards().everyShard()).isTrue();
        stage(SHARDED, "shard-all-1", 2, "shard", "north");
        stage(SHARDED, "shard-all-2", 2, "shard", "south");
        iterateUntilNothingIsAdmitted();
        assertThat(admitted(SHARDED, "shard-all-1")).isEqualTo(2);
        assertThat(admitted(SHARDED, "shard-all-2")).isEqualTo(2);
    }

    @Test
    void aPartitionFollowsItsNewestJobsShard() {
        set("dispatch.shards", "west");
        stage(SHARDED, "shard-moving", 2, "shard", "east");
        iterateUntilNothingIsAdmitted();
        assertThat(admitted(SHARDED, "shard-moving")).isZero();
        stage(SHARDED, "shard-moving", 1, "shard", "west");
        assertThat(db.strings("SELECT shard FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'shard-moving'",
                SHARDED)).containsExactly("west");
        // the partition's jobs, older ones too, are admitted by the shard it is in now: it is one partition
        iterateUntilNothingIsAdmitted();
        assertThat(admitted(SHARDED, "shard-moving")).isEqualTo(3);
    }

    @Test
    void aShardByThatGivesNoUsableNameIsRefusedAndNothingIsLost() {
        stage(SHARDED, "shard-kept", 2, "shard", "kept");
        for (String[] bad : List.of(new String[] {" ", "a blank shard"}, new String[] {"a,b", "the shard 'a,b', which has a comma"},
                new String[] {"two words", "the shard 'two words', which has a comma, a space or a control character"},
                new String[] {"x".repeat(129), "a shard of 129 characters (at most 128)"})) {
            assertThatThrownBy(() -> stage(SHARDED, "shard-bad", 1, "shard", bad[0]))
                    .isInstanceOf(SubmissionRejectedException.class)
                    .hasMessageContaining("Policy 'it-sharded': shardBy gave " + bad[1]);
        }
        Properties noShard = Params.of("tenant", "shard-bad");
        assertThatThrownBy(() -> dispatch.submit(SHARDED, noShard))
                .isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("Policy 'it-sharded': shardBy gave a null shard for job 'it-sharded'");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'shard-bad'",
                SHARDED)).isZero();
        assertThat(pending(SHARDED, "shard-kept")).isEqualTo(2);
    }

    private List<String> unservedHints() {
        return monitoring.summary().hints().stream().map(Hint::text).filter(t -> t.startsWith("Shard '")).toList();
    }

    private long pending(String policy, String key) {
        return db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?", policy, key);
    }

    /** Iterations until one admits nothing (anywhere): what this node may admit is then admitted. */
    private void iterateUntilNothingIsAdmitted() {
        for (int i = 0; i < 50; i++) {
            if (ticks.iterate().admitted() == 0) {
                return;
            }
        }
        throw new AssertionError("still admitting after 50 iterations");
    }
}
