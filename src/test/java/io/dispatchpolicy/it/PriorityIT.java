package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Strict priority (ADR 0009): within a partition, across partitions, from the policy or the caller. */
class PriorityIT extends EngineTest {

    private static final String POLICY = "it-prio";

    @Test
    void urgentJobsOvertakeBulkJobsOfTheSamePartitionInSubmissionOrder() {
        set("dispatch.policy." + POLICY + ".admission-batch-size", "3");
        long[] bulk = stage(POLICY, "acme", 100);
        long[] urgent = submit(POLICY, "acme", 5, SubmitOption.priority(10));
        assertThat(column("top_priority", POLICY, "acme")).isEqualTo("10");

        assertThat(ticks.iterate().admitted()).isEqualTo(3);

        assertThat(states(urgent)).containsExactly("ADMITTED", "ADMITTED", "ADMITTED", "STAGED", "STAGED");
        assertThat(states(bulk)).containsOnly("STAGED");
        // the two urgent jobs left still lead the partition
        assertThat(column("top_priority", POLICY, "acme")).isEqualTo("10");

        ticks.iterate();
        assertThat(states(urgent)).containsOnly("ADMITTED");
        assertThat(states(Arrays.copyOf(bulk, 1))).containsExactly("ADMITTED");
        assertThat(column("top_priority", POLICY, "acme")).as("read again off the index once the urgent ones left")
                .isEqualTo("0");
    }

    @Test
    void thePartitionWithTheHigherPriorityIsClaimedFirst() {
        set("dispatch.partition-batch-size", "1");
        stage(POLICY, "bulk-tenant", 3);
        stage(POLICY, "urgent-tenant", 1, "urgency", "5");
        // without priority the bulk partition would go first: it was checked longer ago
        db.update("UPDATE dispatch.partitions SET last_checked_at = now() - interval '1 hour' "
                + "WHERE policy_name = ? AND partition_key = 'bulk-tenant'", POLICY);
        db.update("UPDATE dispatch.partitions SET last_checked_at = now() "
                + "WHERE policy_name = ? AND partition_key = 'urgent-tenant'", POLICY);

        ticks.iterate();

        assertThat(admitted(POLICY, "urgent-tenant")).isEqualTo(1);
        assertThat(admitted(POLICY, "bulk-tenant")).isZero();
    }

    @Test
    void thePolicysPriorityFunctionOrdersPlainSubmissionsAndEqualPrioritiesStayFifo() {
        set("dispatch.policy." + POLICY + ".admission-batch-size", "1");
        long[] routine = stage(POLICY, "globex", 2);
        long[] firstUrgent = stage(POLICY, "globex", 1, "urgency", "7");
        long[] secondUrgent = stage(POLICY, "globex", 1, "urgency", "7");
        long[] demoted = submit(POLICY, "globex", 1, SubmitOption.priority(-1));

        for (int i = 0; i < 5; i++) {
            assertThat(ticks.iterate().admitted()).as("iteration " + i).isEqualTo(1);
        }
        assertThat(admissionOrder(firstUrgent[0], secondUrgent[0], routine[0], routine[1], demoted[0]))
                .as("priority 7, 7, then 0, 0 in submission order, then -1").isSorted();
    }

    @Test
    void aJobOffsetBy60sOvertakesTheWorkOfTheLast60sAndNoneOlderFromTheCallerOrThePolicy() {
        set("dispatch.policy." + POLICY + ".admission-batch-size", "1");
        long[] older = stage(POLICY, "initech", 2);
        long[] recent = stage(POLICY, "initech", 2);
        // as if the first two had been submitted 90 s ago and the next two 30 s ago (ordered_at is the instant
        // a job counts as submitted; the test cannot wait a minute)
        db.update("UPDATE dispatch.staged_jobs SET ordered_at = ordered_at - interval '90 seconds' WHERE id IN (?, ?)", older[0], older[1]);
        db.update("UPDATE dispatch.staged_jobs SET ordered_at = ordered_at - interval '30 seconds' WHERE id IN (?, ?)", recent[0], recent[1]);
        long[] byPolicy = stage(POLICY, "initech", 1, "headStart", "60");
        long[] byCaller = submit(POLICY, "initech", 1, SubmitOption.priorityOffset(Duration.ofSeconds(60)));
        long[] plain = stage(POLICY, "initech", 1);
        long[] behind = submit(POLICY, "initech", 1, SubmitOption.priorityOffset(Duration.ofSeconds(-60)));
        long[] urgent = submit(POLICY, "initech", 1, SubmitOption.priority(1));
        assertThat(db.count("SELECT round(extract(epoch FROM staged_at - ordered_at) * 1000) FROM dispatch.staged_jobs WHERE id = ?",
                byCaller[0])).as("ordered 60 s before it was staged").isBetween(59_999L, 60_001L);
        assertThat(db.count("SELECT round(extract(epoch FROM staged_at - ordered_at)) FROM dispatch.staged_jobs WHERE id = ?",
                behind[0])).isEqualTo(-60);

        for (int i = 0; i < 9; i++) {
            assertThat(ticks.iterate().admitted()).as("iteration " + i).isEqualTo(1);
        }
        assertThat(admissionOrder(urgent[0], older[0], older[1], byPolicy[0], byCaller[0], recent[0], recent[1], plain[0], behind[0]))
                .as("a priority first; then the two older than 60 s, the two offset by 60 s, the two of the last 60 s, the plain "
                        + "one, and the one offset by -60 s").isSorted();
    }

    @Test
    void anOffsetBeyondTheHorizonIsRefusedFromTheCallerAndFromThePolicy() {
        assertThatThrownBy(() -> SubmitOption.priorityOffset(null)).hasMessage("SubmitOption.priorityOffset: the offset must not be null");
        assertThatThrownBy(() -> SubmitOption.priorityOffset(SubmitOption.HORIZON.plusSeconds(1)))
                .isInstanceOf(io.dispatchpolicy.api.SubmissionRejectedException.class)
                .hasMessageContaining("SubmitOption.priorityOffset: an offset of at most 3653 days either way");
        assertThatThrownBy(() -> stage(POLICY, "initech", 1, "headStart", String.valueOf(SubmitOption.HORIZON.getSeconds() + 1)))
                .hasMessageContaining("Policy 'it-prio': its priority offset function for job 'it-prio': an offset of at most 3653 days");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ?", POLICY)).as("nothing staged").isZero();
    }

    /** The execution ids the submissions were admitted as: JBeret hands them out in admission order. */
    private List<Long> admissionOrder(long... submissions) {
        List<Long> executions = new ArrayList<>();
        for (long id : submissions) {
            SubmissionStatus status = dispatch.status(id);
            assertThat(status.state()).as("submission " + id).isEqualTo(SubmissionStatus.State.ADMITTED);
            executions.add(status.executionId().getAsLong());
        }
        return executions;
    }

    private List<String> states(long[] submissions) {
        return Arrays.stream(submissions).mapToObj(id -> dispatch.status(id).state().name()).toList();
    }
}
