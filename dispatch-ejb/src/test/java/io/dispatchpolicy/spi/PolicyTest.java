package io.dispatchpolicy.spi;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyTest {

    @Test
    void declaresJobsWithoutTheXmlSuffix() {
        Policy p = Policy.named("reports").governs("tenant-report.xml", "tenant-export")
                .partitionBy(ctx -> ctx.get("tenant")).build();
        assertThat(p.jobNames()).containsExactly("tenant-report", "tenant-export");
        assertThat(p.admissionBatchSize()).isEmpty();
    }

    @Test
    void defaultContextIsEveryParameter() {
        Policy p = Policy.named("p").governs("j").partitionBy(ctx -> ctx.get("a")).build();
        Properties params = new Properties();
        params.setProperty("a", "1");
        params.setProperty("b", "2");
        assertThat(p.contextFunction().apply(params)).isEqualTo(Map.of("a", "1", "b", "2"));
    }

    @Test
    void declarationMistakesAreCaughtAtBuild() {
        assertThatThrownBy(() -> Policy.named("bad name")).isInstanceOf(PolicyDeclarationException.class);
        assertThatThrownBy(() -> Policy.named(null)).isInstanceOf(PolicyDeclarationException.class);
        assertThatThrownBy(() -> Policy.named("p").partitionBy(c -> "x").build())
                .hasMessageContaining("governs no job");
        assertThatThrownBy(() -> Policy.named("p").governs("j").build()).hasMessageContaining("partitionBy");
        assertThatThrownBy(() -> Policy.named("p").governs(" ")).hasMessageContaining("blank job");
        assertThatThrownBy(() -> Policy.named("p").admissionBatchSize(0)).hasMessageContaining(">= 1");
    }

    @Test
    void submissionControlsAreCheckedAtDeclaration() {
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").uniqueBy("order")
                .debounce(KeyFunction.parameters("order"), java.time.Duration.ofSeconds(1), null).build())
                .isInstanceOf(PolicyDeclarationException.class).hasMessageContaining("either unique or debounced");
        assertThatThrownBy(() -> Policy.named("p").uniqueBy()).hasMessageContaining("name at least one job parameter");
        assertThatThrownBy(() -> Policy.named("p").expireAfter(java.time.Duration.ZERO)).hasMessageContaining("expireAfter must be more than 0");
        assertThatThrownBy(() -> Policy.named("p").debounce(KeyFunction.parameters("a"), java.time.Duration.ofSeconds(5),
                java.time.Duration.ofSeconds(2))).hasMessageContaining("at least the period");
        assertThatThrownBy(() -> Uniqueness.covering(null, Uniqueness.State.RUNNING)).hasMessageContaining("covers STAGED always");
        assertThatThrownBy(() -> Uniqueness.covering(java.time.Duration.ofSeconds(1), Uniqueness.State.STAGED))
                .hasMessageContaining("COMPLETED");
        Properties params = new Properties();
        params.setProperty("b", "x&y=z");
        assertThat(KeyFunction.parameters("a", "b").keyOf(params)).isEqualTo("a=&b=x%26y%3Dz");
        assertThat(KeyFunction.parameters("a").keyOf(params)).as("none of its parameters: no key").isNull();
        Policy p = Policy.named("p").governs("j").partitionBy(c -> "x").backlogCap(3, BacklogCap.Overflow.KEEP_NEWEST)
                .expireAfter(java.time.Duration.ofMinutes(1)).build();
        assertThat(p.backlogCap()).contains(new BacklogCap(3, BacklogCap.Overflow.KEEP_NEWEST));
        assertThat(BacklogCap.Overflow.DROP_OLDEST.setting()).isEqualTo("drop-oldest");
    }

    @Test
    void lanesAndTheirDefaultAreDeclaredInOrder() {
        Policy p = Policy.named("p").governs("j").partitionBy(c -> "x").capacity(10)
                .lane("critical", 6, 2).lane("default", 3).lane("bulk", 1).build();
        assertThat(p.lanes()).extracting(Lane::name).containsExactly("critical", "default", "bulk");
        assertThat(p.defaultLane()).isEqualTo("critical");
        assertThat(Policy.named("q").governs("j").partitionBy(c -> "x").lane("a", 1).lane("b", 1).defaultLane("b").build()
                .defaultLane()).isEqualTo("b");
        assertThat(Policy.named("r").governs("j").partitionBy(c -> "x").build().defaultLane()).isNull();
    }

    @Test
    void costMistakesAreCaughtAtBuild() {
        Policy.Builder base = Policy.named("p").governs("j").partitionBy(c -> "x");
        assertThatThrownBy(() -> base.cost("j", 0)).hasMessage("Policy 'p': the cost of job 'j' must be at least 1 and at most 10000, was 0");
        assertThatThrownBy(() -> base.cost("j", 10_001)).hasMessageContaining("was 10001");
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").cost("k", 2).build())
                .hasMessage("Policy 'p' declares a cost for job 'k', which it does not govern (it governs [j])");
        assertThat(Policy.named("p").governs("j").partitionBy(c -> "x").cost("j", 6).build().costs()).isEqualTo(java.util.Map.of("j", 6));
    }

    @Test
    void laneMistakesAreCaughtAtBuild() {
        Policy.Builder base = Policy.named("p").governs("j").partitionBy(c -> "x");
        assertThatThrownBy(() -> base.lane("a", 0)).hasMessage("Policy 'p': Lane 'a': weight must be >= 1, was 0");
        assertThatThrownBy(() -> base.lane("a", 1, -1)).hasMessage("Policy 'p': Lane 'a': min must be >= 0, was -1");
        assertThatThrownBy(() -> base.lane("a", 1, -1)).hasMessageContaining("min must be >= 0");
        assertThatThrownBy(() -> base.lane("a b", 1)).hasMessageContaining("is invalid");
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").lane("a", 1).lane("a", 2))
                .hasMessageContaining("declared twice");
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").lane("a", 1, 1).build())
                .hasMessageContaining("no capacity");
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").capacity(3)
                .lane("a", 1, 2).lane("b", 1, 2).build()).hasMessageContaining("add up to 4, more than the capacity 3");
        assertThatThrownBy(() -> Policy.named("p").governs("j").partitionBy(c -> "x").lane("a", 1).defaultLane("b").build())
                .hasMessageContaining("default lane 'b'");
    }

    @Test
    void lanesAsStandaloneXmlWritesThem() {
        assertThat(Lane.parse("critical:6:2, default:3,bulk:1"))
                .containsExactly(new Lane("critical", 6, 2), new Lane("default", 3, 0), new Lane("bulk", 1, 0));
        assertThatThrownBy(() -> Lane.parse("critical")).hasMessageContaining("not name:weight");
        assertThatThrownBy(() -> Lane.parse("critical:x")).hasMessageContaining("whole numbers");
    }
}
