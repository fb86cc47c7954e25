package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The take by cost (ADR 0035) against the engine's test database: a partition's jobs are taken in their order
 * while their costs add up within its slots, and the first that does not fit stops it — a costly job at the head
 * is never overtaken by the cheap ones behind it; each partition of a group within its own slots.
 */
class AdmissionTakeTest {

    private static final String POLICY = "it-take-cost";
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final AdmissionTake take = new AdmissionTake();
    private long first;
    private long second;

    @BeforeEach
    void twoPartitions() {
        take.jdbc = jdbc;
        first = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'a', '{}') RETURNING id", POLICY);
        second = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'b', '{}') RETURNING id", POLICY);
    }

    @AfterEach
    void removeThem() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (?, ?)", first, second);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    @Test
    void jobsAreTakenInOrderWhileTheirCostsFitAndTheFirstThatDoesNotStopsThePartition() {
        stage(first, 1, 4, 1, 2);
        assertThat(costs(take.take(Map.of(first, new AdmissionTake.Want(10, 5))).get(first)))
                .as("1 + 4 fit in 5; the next 1 would make 6").containsExactly(1, 4);
        assertThat(take.headCost(first)).hasValue(1);
        assertThat(costs(take.take(Map.of(first, new AdmissionTake.Want(1, 10))).get(first))).as("at most one job").containsExactly(1);
        assertThat(take.take(Map.of(first, new AdmissionTake.Want(10, 1)))).as("the 2 at the head does not fit in 1").isEmpty();
        assertThat(take.headCost(first)).hasValue(2);
        assertThat(count(first)).isEqualTo(1);
    }

    @Test
    void aCostlyJobAtTheHeadIsNotOvertakenByTheCheapOnesBehindIt() {
        stage(first, 4, 1, 1, 1);
        assertThat(take.take(Map.of(first, new AdmissionTake.Want(10, 3)))).isEmpty();
        assertThat(count(first)).as("nothing taken").isEqualTo(4);
        assertThat(costs(take.take(Map.of(first, new AdmissionTake.Want(10, 6))).get(first))).containsExactly(4, 1, 1);
    }

    @Test
    void eachPartitionOfAGroupWithinItsOwnSlots() {
        stage(first, 2, 2, 2);
        stage(second, 1, 1, 1, 1);
        Map<Long, List<StagedJob>> taken = take.take(Map.of(first, new AdmissionTake.Want(3, 4), second, new AdmissionTake.Want(3, 4)));
        assertThat(costs(taken.get(first))).containsExactly(2, 2);
        assertThat(costs(taken.get(second))).as("three jobs at most").containsExactly(1, 1, 1);
        assertThat(take.headCost(second)).hasValue(1);
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id = ?", second);
        assertThat(take.headCost(second)).isEmpty();
    }

    private void stage(long partition, int... costs) {
        for (int cost : costs) {
            db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, cost) VALUES (?, 'j', '{}'::jsonb, ?)",
                    partition, cost);
        }
    }

    private long count(long partition) {
        return db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", partition);
    }

    private static List<Integer> costs(List<StagedJob> jobs) {
        return jobs.stream().map(StagedJob::cost).toList();
    }
}
