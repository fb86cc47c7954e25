package io.dispatchpolicy.domain.shard;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardScopeTest {

    @Test
    void unsetEmptyOrStarMeansEveryShard() {
        for (String value : new String[] {null, "", "  ", "*", " * "}) {
            ShardScope scope = ShardScope.parse(value);
            assertThat(scope.everyShard()).as("'%s'", value).isTrue();
            assertThat(scope.claimed()).isEmpty();
            assertThat(scope.share(50)).isEqualTo(50);
        }
    }

    @Test
    void namedShardsAreClaimedSortedAfterTheUnshardedOnes() {
        ShardScope scope = ShardScope.parse(" odd, even ,odd");
        assertThat(scope.everyShard()).isFalse();
        assertThat(scope.named()).containsExactly("even", "odd");
        assertThat(scope.claimed()).containsExactly(ShardScope.UNSHARDED, "even", "odd");
        assertThat(scope).isEqualTo(ShardScope.parse("even,odd"));
        assertThat(scope.toString()).isEqualTo("shards [even, odd]");
    }

    @Test
    void theBatchIsSplitBetweenTheClaimedShardsAtLeastOneEach() {
        assertThat(ShardScope.parse("a").share(50)).isEqualTo(25);
        assertThat(ShardScope.parse("a,b").share(50)).isEqualTo(17);
        assertThat(ShardScope.parse("a,b,c,d,e").share(3)).isEqualTo(1);
    }

    @Test
    void badValuesSayWhatIsWrong() {
        for (List<String> bad : List.of(List.of("a,,b", "an empty name"), List.of("a,", "an empty name"),
                List.of("a b", "the shard 'a b', which has a comma, a space or a control character"),
                List.of("x".repeat(129), "a shard of 129 characters (at most 128)"))) {
            assertThatThrownBy(() -> ShardScope.parse(bad.get(0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("shard names separated by commas, or * for every shard: " + bad.get(1));
        }
    }

    @Test
    void shardNamesAreCheckedLikeTheSettingChecksThem() {
        assertThat(ShardNames.problem("eu-west.1")).isNull();
        assertThat(ShardNames.problem(null)).isEqualTo("a null shard");
        assertThat(ShardNames.problem(" ")).isEqualTo("a blank shard");
        assertThat(ShardNames.problem("a\tb")).contains("control character");
    }
}
