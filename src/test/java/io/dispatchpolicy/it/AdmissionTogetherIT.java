package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmissionStatus;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Small partitions of a policy without a budget share one admission transaction (ADR 0016): their
 * admissions commit together, and a failing one rolls the group back, after which each partition is
 * admitted on its own, so the failure stays with its partition.
 */
class AdmissionTogetherIT extends EngineTest {

    private static final String POLICY = "it-together";

    @Inject
    DispatchOperator dispatch;

    @AfterEach
    void disarm() {
        AdmissionFault.disarmPartition(POLICY, "g3");
    }

    @Test
    void smallPartitionsAreAdmittedInOneTransaction() {
        List<String> keys = List.of("h1", "h2", "h3");
        // one, two and three jobs: the group's one bookkeeping statement must give each partition its own
        List<long[]> staged = new java.util.ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            staged.add(stage(POLICY, keys.get(i), i + 1));
        }

        assertThat(ticks.iterate().admitted()).isEqualTo(6);

        Object transaction = AdmissionFault.transactionsOf(POLICY, "h1").get(0);
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            assertThat(admitted(POLICY, key)).as(key).isEqualTo(i + 1);
            assertThat(column("pending_count", POLICY, key)).as(key).isEqualTo("0");
            assertThat(AdmissionFault.transactionsOf(POLICY, key)).as(key).containsExactly(transaction);
            long partition = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?", POLICY, key);
            List<String> admittedHere = db.strings("SELECT submission_id::text FROM dispatch.admissions WHERE partition_id = ? "
                    + "ORDER BY submission_id", partition);
            assertThat(admittedHere).as(key).containsExactlyElementsOf(
                    java.util.Arrays.stream(staged.get(i)).sorted().mapToObj(Long::toString).toList());
        }
        for (long[] ids : staged) {
            for (long id : ids) {
                await().atMost(Duration.ofSeconds(30)).until(() -> dispatch.status(id).state() == SubmissionStatus.State.ADMITTED
                        && Runs.of(dispatch.status(id).executionId().orElseThrow()) == 1);
            }
        }
    }

    @Test
    void aFailingPartitionRollsTheGroupBackAndTheOthersAreAdmittedOnTheirOwn() {
        List<String> keys = List.of("g1", "g2", "g3", "g4", "g5");
        keys.forEach(k -> stage(POLICY, k, 2));
        AdmissionFault.armPartition(POLICY, "g3");

        assertThat(ticks.iterate().admitted()).isEqualTo(8);

        // the group's transaction reached g3 (fairness order: g1, g2, g3 …) and rolled back there; then every
        // partition was admitted in a transaction of its own
        Object group = AdmissionFault.transactionsOf(POLICY, "g3").get(0);
        Set<Object> own = new HashSet<>();
        int triedInGroup = 0;
        for (String key : keys) {
            List<Object> transactions = AdmissionFault.transactionsOf(POLICY, key);
            boolean inGroup = transactions.get(0).equals(group);
            triedInGroup += inGroup ? 1 : 0;
            assertThat(transactions).as(key).hasSize(inGroup ? 2 : 1);
            own.add(transactions.get(transactions.size() - 1));
            assertThat(admitted(POLICY, key)).as(key).isEqualTo(key.equals("g3") ? 0 : 2);
        }
        assertThat(triedInGroup).as("g1, g2 and g3 were tried together").isEqualTo(3);
        assertThat(own).as("then each in a transaction of its own").hasSize(5).doesNotContain(group);
        assertThat(db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'g3'", POLICY))
                .isEqualTo(2);
        assertThat(column("last_deny_reason", POLICY, "g3")).isEqualTo("admission_failed");
        assertThat(column("last_deny_reason", POLICY, "g4")).isNull();

        // the veto lifted, g3 is admitted once its backoff is over
        AdmissionFault.disarmPartition(POLICY, "g3");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            ticks.iterate();
            return admitted(POLICY, "g3") == 2;
        });
    }
}
