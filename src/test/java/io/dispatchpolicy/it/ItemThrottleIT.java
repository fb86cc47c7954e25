package io.dispatchpolicy.it;

import io.dispatchpolicy.api.ItemThrottle;
import io.dispatchpolicy.completion.JobStops;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The item-level throttle (issue 35, deliverable 4; ADR 0034): chunk steps that draw from their partition's bucket
 * through the engine's listener read, all together, no faster than the policy's item rate — at any moment, at most
 * the rate times the time elapsed plus one full bucket — and a stop ends a wait for tokens.
 */
class ItemThrottleIT extends EngineTest {

    private static final String POLICY = "it-items";
    private static final double RATE = 20;
    private static final double BURST = 20;

    @Inject
    ItemThrottle throttle;

    @Inject
    JobStops stops;

    @Test
    void threeConcurrentChunkJobsOfATenantReadAtMostItsItemRate() {
        long[] ids = stage(POLICY, "t", 3, "count", "100", "batch", "1");
        stage(POLICY, "other", 1, "count", "40", "batch", "5");
        assertThat(ticks.iterate().admitted()).isEqualTo(4);
        List<Long> executions = java.util.Arrays.stream(ids).mapToObj(id -> dispatch.status(id).executionId().getAsLong()).toList();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> executions.stream().allMatch(e -> "COMPLETED".equals(db.batchStatus(e))));

        List<Long> at = ItemClock.readAt("t");
        assertThat(at).hasSize(300);
        // every window of reads: items <= rate x its length + one bucket (5 % for this machine's scheduling)
        int worst = 0;
        for (int i = 0; i < at.size(); i++) {
            for (int j = i; j < at.size(); j++) {
                double seconds = (at.get(j) - at.get(i)) / 1e9;
                double allowed = (RATE * seconds + BURST) * 1.05 + 1;
                if (j - i + 1 > allowed) {
                    worst = Math.max(worst, j - i + 1);
                }
            }
        }
        assertThat(worst).as("reads over the rate in some window").isZero();
        double seconds = (at.get(at.size() - 1) - at.get(0)) / 1e9;
        assertThat(seconds).as("300 items at 20 a second after a bucket of 20").isGreaterThanOrEqualTo((300 - BURST) / RATE * 0.95);
        assertThat(ItemClock.readAt("other")).as("another tenant's bucket is its own").hasSize(40);
    }

    @Inject
    io.dispatchpolicy.policy.PolicySettings policySettings;

    @Inject
    io.dispatchpolicy.policy.PolicyRegistry registry;

    @Test
    void standaloneXmlsItemRateAndBurstReplaceTheDeclaredOnesLive() {
        io.dispatchpolicy.spi.Policy policy = registry.named(POLICY).orElseThrow();
        assertThat(policySettings.itemRate(policy)).hasValue(io.dispatchpolicy.spi.ItemRate.of(RATE, Duration.ofSeconds(1)));
        set("dispatch.policy." + POLICY + ".item-rate", "5");
        assertThat(policySettings.itemRate(policy)).hasValue(new io.dispatchpolicy.spi.ItemRate(5, Duration.ofSeconds(1), 5));
        set("dispatch.policy." + POLICY + ".item-burst", "12");
        assertThat(policySettings.itemRate(policy)).hasValue(new io.dispatchpolicy.spi.ItemRate(5, Duration.ofSeconds(1), 12));
        set("dispatch.policy." + POLICY + ".item-rate", "off");
        assertThat(policySettings.itemRate(policy)).as("off: no item throttle").isEmpty();
        set("dispatch.policy." + POLICY + ".item-rate", "fast"); // a typo written live: reported once, the declared one applies
        assertThat(policySettings.itemRate(policy)).hasValue(io.dispatchpolicy.spi.ItemRate.of(RATE, Duration.ofSeconds(1)));
    }

    @Test
    void aStopEndsAWaitForTokensAndBadDrawsAreRefused() {
        long id = stage(POLICY, "s", 1, "count", "1000", "batch", "20")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long execution = dispatch.status(id).executionId().getAsLong();
        // the first bucket goes at once; then a draw of 20 waits a second
        await().atMost(Duration.ofSeconds(20)).until(() -> ItemClock.readAt("s").size() >= 20);
        assertThatThrownBy(() -> throttle.acquire(execution, 21)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ItemThrottle: draw 1 to 20 items at a time (the bucket of policy 'it-items' holds 20.0), not 21");
        assertThatThrownBy(() -> throttle.acquire(execution, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> throttle.acquire(-1, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("ItemThrottle: execution -1 is not a governed job in flight, so it has no partition to draw from");

        stops.stop(execution);
        await().atMost(Duration.ofSeconds(10)).until(() -> "STOPPED".equals(db.batchStatus(execution)));
        assertThat(ItemClock.readAt("s").size()).as("far fewer than its 1,000 items").isLessThan(200);
    }
}
