package io.dispatchpolicy.spi;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetriesTest {

    @Test
    void exponentialIsThirtySecondsPlusTheFifthPowerOfTheRetry() {
        assertThat(Retries.exponentialDelay(0)).isEqualTo(Duration.ofSeconds(30));
        assertThat(Retries.exponentialDelay(1)).isEqualTo(Duration.ofSeconds(31));
        assertThat(Retries.exponentialDelay(2)).isEqualTo(Duration.ofSeconds(62));
        assertThat(Retries.exponentialDelay(3)).isEqualTo(Duration.ofSeconds(273));
        assertThat(Retries.exponentialDelay(4)).isEqualTo(Duration.ofSeconds(1054));
        assertThat(Retries.exponentialDelay(9)).isEqualTo(Duration.ofSeconds(30 + 59_049));
        assertThat(Retries.exponential().delayBefore(3, null)).contains(Duration.ofSeconds(273));
    }

    @Test
    void theLimitEndsRetriesAndDefaultsToTen() {
        Retries fixed = Retries.fixed(Duration.ofSeconds(5));
        assertThat(fixed.maxRetries()).isEqualTo(10);
        assertThat(fixed.delayBefore(9, null)).contains(Duration.ofSeconds(5));
        assertThat(fixed.delayBefore(10, null)).isEmpty();
        assertThat(fixed.maxRetries(0).delayBefore(0, null)).isEmpty();
        assertThat(fixed.maxRetries(0).declared()).isTrue();
        assertThat(Retries.none().declared()).isFalse();
        assertThat(Retries.none().delayBefore(0, null)).isEmpty();
    }

    @Test
    void aCustomFunctionChoosesADelayTheExponentialOneOrStop() {
        Retries custom = Retries.custom((failed, retry) -> switch (retry) {
            case 0 -> RetryDecision.after(Duration.ofSeconds(10));
            case 1 -> RetryDecision.exponential();
            case 2 -> null;
            default -> RetryDecision.stop();
        }).maxRetries(4);
        assertThat(custom.delayBefore(0, null)).contains(Duration.ofSeconds(10));
        assertThat(custom.delayBefore(1, null)).contains(Duration.ofSeconds(31));
        assertThat(custom.delayBefore(2, null)).as("null means stop").isEmpty();
        assertThat(custom.delayBefore(3, null)).isEmpty();
    }

    @Test
    void badDeclarationsAreRefused() {
        assertThatThrownBy(() -> Retries.fixed(Duration.ofSeconds(-1))).isInstanceOf(PolicyDeclarationException.class);
        assertThatThrownBy(() -> Retries.exponential().maxRetries(-1)).isInstanceOf(PolicyDeclarationException.class);
        assertThatThrownBy(() -> RetryDecision.after(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
