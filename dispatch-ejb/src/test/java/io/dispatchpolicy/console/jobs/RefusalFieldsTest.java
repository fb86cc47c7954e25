package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.spi.ScheduleDeclarationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The API names the field a refusal is about from the engine's own messages (ADR 0038). */
class RefusalFieldsTest {

    @Test
    void aSubmissionsRefusalNamesItsOptionOrSubject() {
        assertThat(DefaultJobControl.fieldOf("SubmitOption.cost: must be at least 1 and at most 64, was 0")).isEqualTo("cost");
        assertThat(DefaultJobControl.fieldOf("SubmitOption.unique: the key must not be empty")).isEqualTo("unique");
        assertThat(DefaultJobControl.fieldOf("Unknown job XML name 'x': …")).isEqualTo("job");
        assertThat(DefaultJobControl.fieldOf("Job 'x' is governed by no policy, so it cannot be delayed")).isEqualTo("job");
        assertThat(DefaultJobControl.fieldOf("Job parameter name 'a b' …")).isEqualTo("parameters");
        assertThat(DefaultJobControl.fieldOf("Unknown lane: 'gold'")).isEqualTo("lane");
        assertThat(DefaultJobControl.fieldOf("A job is either unique or debounced: …")).isEqualTo("debounce");
        assertThat(DefaultJobControl.fieldOf("Policy 'p': partitionBy gave a null key")).isEqualTo("parameters");
        assertThat(DefaultJobControl.fieldOf("something else entirely")).isNull();
        assertThat(DefaultJobControl.fieldOf(null)).isNull();
    }

    @Test
    void aSchedulesRefusalNamesTheFieldItsMessageNamesFirst() {
        assertThat(new ScheduleDeclarationException("Schedule 'n': cron '61 * * * *' is invalid").field()).isEqualTo("cron");
        assertThat(new ScheduleDeclarationException("Schedule 'n': unit is required with an interval").field()).isEqualTo("unit");
        assertThat(new ScheduleDeclarationException("Schedule 'n': param.x is null").field()).isEqualTo("parameters");
        assertThat(new ScheduleDeclarationException("Schedule 'n': catch-up must be true or false").field()).isEqualTo("catch-up");
        assertThat(new ScheduleDeclarationException("Schedule 'n': cron, anchor with interval and unit, or delay is required").field())
                .isEqualTo("cron");
        assertThat(new ScheduleDeclarationException("Two schedules are named 'n'").field()).isNull();
        assertThat(new ScheduleDeclarationException("Schedule 'n': nothing we know").field()).isNull();
    }
}
