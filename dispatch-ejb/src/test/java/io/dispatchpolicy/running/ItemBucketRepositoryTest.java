package io.dispatchpolicy.running;

import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import io.dispatchpolicy.spi.ItemRate;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The item throttle's bucket (ADR 0034) against the engine's test database: born full, drawn while it holds enough,
 * then answering how long until it would — refilled by the database's clock (the row's time is moved back, as time
 * passing would), never past full; one bucket per key.
 */
class ItemBucketRepositoryTest {

    private static final String POLICY = "it-bucket";
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final ItemBucketRepository buckets = new ItemBucketRepository();

    {
        buckets.jdbc = jdbc;
    }

    @AfterEach
    void removeIt() {
        db.update("DELETE FROM dispatch.item_buckets WHERE policy_name = ?", POLICY);
    }

    @Test
    void aBucketIsBornFullDrawsWhatItHoldsAndRefillsByTheDatabasesClock() {
        // 0.01 tokens a second: what the test's own milliseconds refill is negligible, the rows' times decide
        double rate = 0.01;
        for (int i = 0; i < 4; i++) {
            assertThat(buckets.take(POLICY, "k", 5, rate, 20)).as("draw %d of 5 from a full bucket of 20", i).isZero();
        }
        assertThat(buckets.take(POLICY, "k", 5, rate, 20)).as("empty: 5 items at 0.01 a second").isCloseTo(500, within(1.0));
        assertThat(buckets.take(POLICY, "other", 20, rate, 20)).as("another key's bucket is its own").isZero();

        back(1_000); // 1,000 s later: 10 tokens
        assertThat(buckets.take(POLICY, "k", 10, rate, 20)).isZero();
        assertThat(buckets.take(POLICY, "k", 1, rate, 20)).isCloseTo(100, within(1.0));

        back(360_000); // 100 hours later: full, not 3,600
        assertThat(buckets.take(POLICY, "k", 20, rate, 20)).isZero();
        assertThat(buckets.take(POLICY, "k", 1, rate, 20)).isCloseTo(100, within(1.0));
    }

    @Test
    void anItemRateIsPositiveWithABucketOfAtLeastOne() {
        assertThat(ItemRate.of(20, Duration.ofSeconds(2)).perSecond()).isEqualTo(10);
        assertThat(ItemRate.of(0.5, Duration.ofSeconds(1)).burst()).isEqualTo(1);
        assertThatThrownBy(() -> ItemRate.of(0, Duration.ofSeconds(1))).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("An item throttle's rate must be more than 0, was 0.0");
        assertThatThrownBy(() -> ItemRate.of(1, Duration.ZERO)).hasMessageContaining("period must be more than 0");
        assertThatThrownBy(() -> new ItemRate(1, Duration.ofSeconds(1), 0.5)).hasMessageContaining("burst must be at least 1");
    }

    private void back(int seconds) {
        db.update("UPDATE dispatch.item_buckets SET refilled_at = refilled_at - ? * interval '1 second' WHERE policy_name = ?", seconds, POLICY);
    }
}
