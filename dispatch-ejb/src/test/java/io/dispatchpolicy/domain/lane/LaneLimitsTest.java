package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lending and borrowing limits (ADR 0047): the admission's room and the sharing's plan from one rule. */
class LaneLimitsTest {

    private static final Lane KEEPER = new Lane("a", 1, 4).lendingLimit(1);
    private static final Lane BUSY = new Lane("b", 9, 0);
    private static final List<Lane> LENDING = List.of(KEEPER, BUSY);

    @Test
    void aLaneKeepsTheUnlentPartOfItsMinimumLessWhatItRuns() {
        assertThat(LaneLimits.kept(KEEPER, 0)).isEqualTo(3);
        assertThat(LaneLimits.kept(KEEPER, 2)).isEqualTo(1);
        assertThat(LaneLimits.kept(KEEPER, 5)).isZero();
        assertThat(LaneLimits.kept(new Lane("x", 1, 4), 0)).as("no lending limit: lends it all").isZero();
        assertThat(LaneLimits.kept(new Lane("x", 1, 4).lendingLimit(0), 0)).as("lends none").isEqualTo(4);
    }

    @Test
    void theOtherLanesRoomStopsAtTheKeptSlotsAndTheKeepersAtTheCapacity() {
        assertThat(LaneLimits.room(LENDING, 10, Map.of("b", 6L), "b")).as("10 - 6 - 3 kept").isEqualTo(1);
        assertThat(LaneLimits.room(LENDING, 10, Map.of("b", 7L), "b")).isZero();
        assertThat(LaneLimits.room(LENDING, 10, Map.of("b", 7L), "a")).as("a's three are free for it").isEqualTo(3);
        assertThat(LaneLimits.room(LENDING, 10, Map.of("a", 2L, "b", 6L), "b")).as("a runs 2: keeps 1 more").isEqualTo(1);
        assertThat(LaneLimits.room(LENDING, 10, Map.of("a", 4L, "b", 6L), "a")).isZero();
    }

    @Test
    void aBorrowerStopsItsLimitBeyondItsShareTheLargerOfItsMinimumAndItsWeightsPart() {
        Lane borrower = new Lane("b", 1, 0).borrowingLimit(2);
        List<Lane> lanes = List.of(new Lane("a", 1, 0), borrower);
        assertThat(LaneLimits.ceiling(lanes, 10, borrower)).as("5 of 10 by weight, + 2").isEqualTo(7);
        assertThat(LaneLimits.room(lanes, 10, Map.of("b", 6L), "b")).isEqualTo(1);
        assertThat(LaneLimits.room(lanes, 10, Map.of("b", 7L), "b")).isZero();
        assertThat(LaneLimits.room(lanes, 10, Map.of("b", 7L), "a")).isEqualTo(3);
        Lane guaranteed = new Lane("g", 1, 8).borrowingLimit(1);
        assertThat(LaneLimits.ceiling(List.of(new Lane("a", 9, 0), guaranteed), 10, guaranteed)).as("its minimum 8 is its share").isEqualTo(9);
        assertThat(LaneLimits.ceiling(lanes, 10, new Lane("a", 1, 0))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theSharingGivesNoLaneWhatAnotherKeepsNorBeyondItsCeilingAndStaysWorkConservingWithin() {
        // 10 free, a idle keeps 3: b is given 7
        int[] given = LaneShares.share(10, new int[] {1, 9}, new int[] {4, 0}, new long[] {0, 0}, new int[] {0, 100},
                new double[] {0, 0}, new long[] {3, 0}, null);
        assertThat(given).containsExactly(0, 7);
        // a has 1 job: its reserve fills it, and its other 2 kept slots stay free
        given = LaneShares.share(10, new int[] {1, 9}, new int[] {4, 0}, new long[] {0, 0}, new int[] {1, 100},
                new double[] {0, 0}, new long[] {3, 0}, null);
        assertThat(given).containsExactly(1, 7);
        // a borrower at 5 of its ceiling 7 is given 2, the rest goes to the other lane with work
        given = LaneShares.share(5, new int[] {1, 1}, new int[] {0, 0}, new long[] {0, 5}, new int[] {100, 100},
                new double[] {0, 5}, new long[] {0, 0}, new long[] {Long.MAX_VALUE, 7});
        assertThat(given).containsExactly(5, 0);
        given = LaneShares.share(5, new int[] {1, 1}, new int[] {0, 0}, new long[] {0, 5}, new int[] {0, 100},
                new double[] {0, 5}, new long[] {0, 0}, new long[] {Long.MAX_VALUE, 7});
        assertThat(given).as("a idle: b takes its 2 and no more").containsExactly(0, 2);
    }

    @Test
    void limitsAreDeclaredInCodeOrStandaloneXmlAndCheckedThere() {
        assertThat(Lane.parse("a:1:4:lend=1,b:9,c:1:0:borrow=2,d:2:2:borrow=0:lend=2"))
                .containsExactly(KEEPER, BUSY, new Lane("c", 1, 0).borrowingLimit(2), new Lane("d", 2, 2, 2, 0));
        assertThat(Lane.parse("a:1:4:lend=1").get(0).format()).isEqualTo("a:1:4:lend=1");
        assertThatThrownBy(() -> Lane.parse("a:1:4:lend=5")).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("Lane 'a': lending limit must be between 0 and its min 4, was 5");
        assertThatThrownBy(() -> Lane.parse("a:1:0:borrow=-1")).hasMessage("Lane 'a': borrowing limit must be >= 0, was -1");
        assertThatThrownBy(() -> Lane.parse("a:1:4:lent=1")).hasMessage("'a:1:4:lent=1': 'lent=1' is neither lend=n nor borrow=n "
                + "(each at most once, after the min)");
        assertThatThrownBy(() -> Lane.parse("a:1:4:lend=1:lend=2")).hasMessageContaining("'lend=2' is neither");
        assertThatThrownBy(() -> Lane.parse("a:1:4:lend=x")).hasMessage("'a:1:4:lend=x': weight, min and limits must be whole numbers");
        assertThatThrownBy(() -> io.dispatchpolicy.spi.Policy.named("p").governs("j").partitionBy(c -> "k")
                .lane(new Lane("a", 1, 0).borrowingLimit(1)).build())
                .hasMessage("Policy 'p': lane 'a' has a lending or borrowing limit but the policy has no capacity to lend or borrow from");
    }
}
