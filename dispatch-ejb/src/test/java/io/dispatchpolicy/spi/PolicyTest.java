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
}
