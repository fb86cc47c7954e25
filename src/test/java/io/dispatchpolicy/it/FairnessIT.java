package io.dispatchpolicy.it;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** In-tick fairness: decayed-admits order, the shared tick budget, and anti-stagnation. */
class FairnessIT extends EngineTest {

    @Test
    void aColdPartitionIsAdmittedBeforeAHotOne() {
        set("dispatch.policy.it-fair.tick-admission-budget", "1");
        stage("it-fair", "hot", 5);
        stage("it-fair", "cold", 5);
        db.update("UPDATE dispatch.partitions SET decayed_admits = 100, decayed_admits_at = now() "
                + "WHERE policy_name = 'it-fair' AND partition_key = 'hot'");

        ticks.iterate();
        assertThat(admitted("it-fair", "cold")).isEqualTo(1);
        assertThat(admitted("it-fair", "hot")).isZero();
        assertThat(column("last_deny_reason", "it-fair", "hot")).isEqualTo("tick_cap_exhausted");
        // left out by the budget, it keeps its place at the front of the next claim
        assertThat(column("last_checked_at", "it-fair", "hot")).isNull();
        assertThat(column("last_checked_at", "it-fair", "cold")).isNotNull();
    }

    @Test
    void aBudgetOfTenOverFivePartitionsGivesTwoEach() {
        set("dispatch.policy.it-fair.tick-admission-budget", "10");
        for (int i = 0; i < 5; i++) {
            stage("it-fair", "five-" + i, 10);
        }
        ticks.iterate();
        for (int i = 0; i < 5; i++) {
            assertThat(admitted("it-fair", "five-" + i)).as("five-" + i).isEqualTo(2);
        }
    }

    @Test
    void whatIsLeftOfTheBudgetGoesToPartitionsThatFilledTheirShare() {
        set("dispatch.policy.it-fair.tick-admission-budget", "10");
        stage("it-fair", "small", 1);
        stage("it-fair", "big-1", 10);
        stage("it-fair", "big-2", 10);
        // the iteration's report (and so its tick sample) counts the second pass too
        assertThat(ticks.iterate().admitted()).isEqualTo(10);
        // share ceil(10/3) = 4: small takes 1, the big ones 4 each, the one left over goes to a big one
        assertThat(admitted("it-fair", "small")).isEqualTo(1);
        assertThat(admitted("it-fair", "big-1") + admitted("it-fair", "big-2")).isEqualTo(9);
    }

    @Test
    void decayedAdmitsSurviveAPartitionIdlingForMonths() {
        stage("it-fair", "sleeper", 3);
        db.update("UPDATE dispatch.partitions SET decayed_admits = 1e6, decayed_admits_at = now() - interval '90 days' "
                + "WHERE policy_name = 'it-fair' AND partition_key = 'sleeper'");
        ticks.iterate();
        assertThat(admitted("it-fair", "sleeper")).isEqualTo(3);
        assertThat(Double.parseDouble(column("decayed_admits", "it-fair", "sleeper"))).isEqualTo(3.0);
    }

    @Test
    void everyPartitionWithWorkIsVisitedWithinCeilNOverBatchIterations() {
        set("dispatch.partition-batch-size", "2");
        for (int i = 0; i < 5; i++) {
            stage("it-fair", "visit-" + i, 1);
        }
        for (int i = 0; i < 3; i++) {
            ticks.iterate();
        }
        for (int i = 0; i < 5; i++) {
            assertThat(admitted("it-fair", "visit-" + i)).as("visit-" + i).isEqualTo(1);
        }
    }
}
