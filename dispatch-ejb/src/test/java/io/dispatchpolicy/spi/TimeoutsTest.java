package io.dispatchpolicy.spi;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.domain.model.JobTimeouts;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Timeouts as a policy declares them and a submission asks for them (ADR 0030). */
class TimeoutsTest {

    @Test
    void aJobsOwnTimeoutOverridesThePolicysAndNullTurnsItOff() {
        Timeouts t = Timeouts.none().run(Duration.ofMinutes(10)).run("export", Duration.ofHours(1)).run("ping", null)
                .progress(Duration.ofSeconds(30));
        assertThat(t.runFor("report")).contains(Duration.ofMinutes(10));
        assertThat(t.runFor("export")).contains(Duration.ofHours(1));
        assertThat(t.runFor("ping")).isEmpty();
        assertThat(t.progressFor("export")).contains(Duration.ofSeconds(30));
        assertThat(t.jobNames()).containsExactly("export", "ping");
        assertThat(Timeouts.none().isNone()).isTrue();
        assertThat(Timeouts.none().run("x", null).isNone()).isTrue();
        assertThat(t.isNone()).isFalse();
    }

    @Test
    void aTimeoutOfZeroNegativeOrBeyondTenYearsIsRefusedAtDeclaration() {
        assertThatThrownBy(() -> Timeouts.none().run(Duration.ZERO)).isInstanceOf(PolicyDeclarationException.class)
                .hasMessageContaining("timeout must be more than 0");
        assertThatThrownBy(() -> Timeouts.none().progress("j", Duration.ofSeconds(-1)))
                .hasMessageContaining("progress timeout of job 'j' must be more than 0");
        assertThatThrownBy(() -> Timeouts.none().run(Duration.ofDays(3654))).hasMessageContaining("at most 3653 days");
        assertThatThrownBy(() -> Timeouts.none().run(" ", Duration.ofSeconds(1))).hasMessageContaining("null or blank job");
    }

    @Test
    void aPolicyMayNameOnlyJobsItGoverns() {
        Policy p = Policy.named("p").governs("export.xml").partitionBy(c -> "x").timeout(Duration.ofSeconds(5))
                .progressTimeout(Duration.ofSeconds(2)).build();
        assertThat(p.timeouts().runFor("export")).contains(Duration.ofSeconds(5));
        assertThat(p.timeouts().progressFor("export")).contains(Duration.ofSeconds(2));
        assertThatThrownBy(() -> Policy.named("p").governs("export").partitionBy(c -> "x")
                .timeouts(Timeouts.none().run("report", Duration.ofSeconds(1))).build())
                .isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("Policy 'p' declares a timeout for job 'report', which it does not govern (it governs [export])");
        assertThat(Policy.named("q").governs("j").partitionBy(c -> "x").build().timeouts()).isEqualTo(Timeouts.none());
    }

    @Test
    void aSubmissionsOwnTimeoutsWinAndBadOnesAreRejectedAtTheBoundary() {
        SubmitOption[] options = {SubmitOption.timeout(Duration.ofSeconds(5)), SubmitOption.priority(3),
                SubmitOption.timeout(Duration.ofSeconds(7))};
        assertThat(SubmitOption.timeoutOf(options)).contains(Duration.ofSeconds(7));
        assertThat(SubmitOption.progressTimeoutOf(options)).isEmpty();
        assertThatThrownBy(() -> SubmitOption.timeout(Duration.ZERO)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessage("SubmitOption.timeout: must be more than 0 and at most 3653 days, was PT0S");
        assertThatThrownBy(() -> SubmitOption.progressTimeout(null)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("SubmitOption.progressTimeout");

        JobTimeouts policy = new JobTimeouts(10_000L, 2_000L);
        assertThat(new JobTimeouts(5_000L, null).or(policy)).isEqualTo(new JobTimeouts(5_000L, 2_000L));
        assertThat(JobTimeouts.NONE.or(JobTimeouts.NONE).isNone()).isTrue();
    }
}
