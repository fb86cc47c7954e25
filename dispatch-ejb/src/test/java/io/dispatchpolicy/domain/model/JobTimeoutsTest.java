package io.dispatchpolicy.domain.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobTimeoutsTest {

    @Test
    void aTimeoutReadsAsAPersonWouldSayIt() {
        assertThat(JobTimeouts.describe(5_000L)).isEqualTo("5 s");
        assertThat(JobTimeouts.describe(150_000L)).isEqualTo("2 min 30 s");
        assertThat(JobTimeouts.describe(3_600_000L)).isEqualTo("1 h");
        assertThat(JobTimeouts.describe(90_061_500L)).isEqualTo("1 d 1 h 1 min 1.500 s");
        assertThat(JobTimeouts.describe(250L)).isEqualTo("250 ms");
        assertThat(new JobTimeouts(3_000L, 120_000L).describe()).isEqualTo("run 3 s · no checkpoint 2 min");
        assertThat(new JobTimeouts(null, 2_000L).describe()).isEqualTo("no checkpoint 2 s");
        assertThat(JobTimeouts.NONE.describe()).isEqualTo("none");
    }
}
