package io.dispatchpolicy.domain.gate;

import org.junit.jupiter.api.Test;

import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class TickBudgetTest {

    @Test
    void tenOverFivePartitionsIsTwoEach() {
        TickBudget budget = new TickBudget(OptionalInt.of(10), 5);
        for (int i = 0; i < 5; i++) {
            assertThat(budget.nextShare()).isEqualTo(2);
            budget.use(2);
        }
        assertThat(budget.exhausted()).isTrue();
    }

    @Test
    void shareIsRoundedUpAndNeverMoreThanWhatIsLeft() {
        TickBudget budget = new TickBudget(OptionalInt.of(10), 3);
        assertThat(budget.nextShare()).isEqualTo(4);
        budget.use(4);
        budget.use(4);
        assertThat(budget.nextShare()).isEqualTo(2);
        assertThat(budget.remaining()).isEqualTo(2);
    }

    @Test
    void aBudgetSmallerThanThePartitionsLeavesSomeOut() {
        TickBudget budget = new TickBudget(OptionalInt.of(1), 2);
        assertThat(budget.nextShare()).isEqualTo(1);
        budget.use(1);
        assertThat(budget.exhausted()).isTrue();
    }

    @Test
    void noBudgetIsUnlimited() {
        TickBudget budget = new TickBudget(OptionalInt.empty(), 50);
        assertThat(budget.limited()).isFalse();
        budget.use(1_000_000);
        assertThat(budget.exhausted()).isFalse();
        assertThat(budget.nextShare()).isEqualTo(Integer.MAX_VALUE);
    }
}
