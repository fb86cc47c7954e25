package io.dispatchpolicy.domain.model;

import io.dispatchpolicy.api.SubmissionRejectedException;
import org.jberet.util.BatchUtil;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobParametersTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void nullMeansNoParameters() {
        assertThat(JobParameters.of(null).asMap()).isEmpty();
    }

    @Test
    void addsTheSubmissionIdWithoutTouchingTheCallersValues() {
        Properties p = JobParameters.of(props("a", "1")).toProperties(1_000_000_000_042L);
        assertThat(p).containsEntry("a", "1").containsEntry(JobParameters.SUBMISSION_ID, "1000000000042");
    }

    @Test
    void largestAcceptedParametersFitJBeretsColumnExactly() {
        int room = JobParameters.MAX_STORED_CHARS - JobParameters.RESERVED_CHARS - "k".length() - 4;
        JobParameters fits = JobParameters.of(props("k", "v".repeat(room)));
        String stored = BatchUtil.propertiesToString(fits.toProperties(Long.MAX_VALUE));
        assertThat(stored).hasSize(JobParameters.MAX_STORED_CHARS);
        assertThat(BatchUtil.stringToProperties(stored)).containsEntry("k", "v".repeat(room));

        assertThatThrownBy(() -> JobParameters.of(props("k", "v".repeat(room + 1))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("the limit is");
    }

    @Test
    void refusesWhatJBeretWouldCorrupt() {
        assertThatThrownBy(() -> JobParameters.of(props("k", "a\nb"))).hasMessageContaining("line break");
        assertThatThrownBy(() -> JobParameters.of(props("k", "a\rb"))).hasMessageContaining("line break");
        assertThatThrownBy(() -> JobParameters.of(props("a=b", "v"))).hasMessageContaining("is invalid");
        assertThatThrownBy(() -> JobParameters.of(props(" k", "v"))).hasMessageContaining("is invalid");
        assertThatThrownBy(() -> JobParameters.of(props("", "v"))).hasMessageContaining("is invalid");
        assertThatThrownBy(() -> JobParameters.of(props(JobParameters.SUBMISSION_ID, "1"))).hasMessageContaining("reserved");
    }

    @Test
    void valuesJBeretCanStoreRoundTrip() {
        JobParameters p = JobParameters.of(props("k", " spaced = value ", "empty", ""));
        String stored = BatchUtil.propertiesToString(p.toProperties(7));
        assertThat(BatchUtil.stringToProperties(stored)).containsEntry("k", " spaced = value ");
    }

    @Test
    void refusesNonStringEntries() {
        Properties p = new Properties();
        p.put("k", 42);
        assertThatThrownBy(() -> JobParameters.of(p)).hasMessageContaining("String keys and values");
    }
}
