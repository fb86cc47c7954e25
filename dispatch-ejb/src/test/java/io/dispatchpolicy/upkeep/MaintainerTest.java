package io.dispatchpolicy.upkeep;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MaintainerTest {

    private final AtomicLong now = new AtomicLong(10_000);
    private final AtomicBoolean down = new AtomicBoolean();
    private final List<String> failures = new ArrayList<>();

    private Maintainer maintainer(MaintenanceTask... tasks) {
        return new Maintainer(List.of(tasks), now::get, down::get, (task, e) -> failures.add(task.name() + ": " + e.getMessage()));
    }

    private static MaintenanceTask task(String name, long interval, long first, boolean repairs) {
        return new MaintenanceTask(name, interval, first, repairs, () -> { });
    }

    @Test
    void eachTaskRunsFirstWhenItSaysThenOnItsIntervalInTheOrderGiven() {
        Maintainer m = maintainer(task("heartbeat", 5_000, 0, true), task("recovery", 10_000, 1_000, true),
                MaintenanceTask.every("sweep", 60_000, () -> { }));
        assertThat(m.runDue()).containsExactly("heartbeat");
        assertThat(m.waitMs()).isEqualTo(1_000);
        now.addAndGet(1_000);
        assertThat(m.runDue()).containsExactly("recovery");
        now.addAndGet(3_999);
        assertThat(m.runDue()).isEmpty();
        assertThat(m.waitMs()).isEqualTo(1);
        now.addAndGet(1);
        assertThat(m.runDue()).containsExactly("heartbeat");
        now.set(10_000 + 60_000);
        assertThat(m.runDue()).containsExactly("heartbeat", "recovery", "sweep");
    }

    @Test
    void aFailingTaskIsReportedAndHoldsUpNoOther() {
        AtomicLong swept = new AtomicLong();
        Maintainer m = maintainer(new MaintenanceTask("recovery", 1_000, 0, true, () -> {
            throw new IllegalStateException("database said no");
        }), new MaintenanceTask("sweep", 1_000, 0, false, swept::incrementAndGet));
        assertThat(m.runDue()).containsExactly("recovery", "sweep");
        assertThat(failures).containsExactly("recovery: database said no");
        assertThat(swept).hasValue(1);
        now.addAndGet(1_000);
        m.runDue();
        assertThat(failures).hasSize(2);
        assertThat(swept).hasValue(2);
    }

    @Test
    void nothingRunsDuringAnOutageAndTheTasksThatAskForItRunAtOnceAfter() {
        Maintainer m = maintainer(task("heartbeat", 5_000, 0, true), task("sweep", 60_000, 0, false));
        m.runDue();
        down.set(true);
        now.addAndGet(30_000);
        assertThat(m.runDue()).as("the database is unreachable").isEmpty();
        now.addAndGet(1_000);
        down.set(false);
        m.repairNow();
        assertThat(m.runDue()).containsExactly("heartbeat");
        now.addAndGet(1_000);
        assertThat(m.runDue()).as("heartbeat's interval counts from its run after the outage").isEmpty();
        assertThat(m.waitMs()).isEqualTo(Maintainer.MAX_WAIT_MS);
    }

    @Test
    void aTaskThatIsOverdueAfterAnOutageRunsOnceNotOncePerMissedInterval() {
        AtomicLong runs = new AtomicLong();
        Maintainer m = maintainer(new MaintenanceTask("aging", 1_000, 0, false, runs::incrementAndGet));
        m.runDue();
        down.set(true);
        now.addAndGet(10_000);
        m.runDue();
        down.set(false);
        m.runDue();
        m.runDue();
        assertThat(runs).hasValue(2);
    }

    @Test
    void untilDoneRepeatsABatchWhileItIsFull() {
        AtomicLong left = new AtomicLong(2_500);
        MaintenanceTask.untilDone(() -> left.addAndGet(-Math.min(1_000, left.get())) > 0).run();
        assertThat(left).hasValue(0);
        assertThatThrownBy(() -> new MaintenanceTask("x", 0, 0, false, () -> { })).hasMessageContaining("interval must be >= 1");
    }
}
