package io.dispatchpolicy.devserver;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunSettingsTest {

    @Test
    void defaultsWithoutVariables() {
        RunSettings run = RunSettings.from(Map.of(), "/repo/.run");
        assertThat(run.runDir()).isEqualTo(Path.of("/repo/.run"));
        assertThat(run.pgPort()).isEqualTo(55432);
        assertThat(run.httpPort()).isEqualTo(8080);
        assertThat(run.managementPort()).isEqualTo(9990);
        assertThat(run.resetConfig()).isFalse();
        assertThat(run.notes()).isEmpty();
    }

    @Test
    void variablesOverrideDefaults() {
        RunSettings run = RunSettings.from(Map.of("DISPATCH_RUN_DIR", "/elsewhere", "DISPATCH_RUN_PG_PORT", "55442",
                "DISPATCH_RUN_PORT_OFFSET", "500", "DISPATCH_RUN_RESET_CONFIG", "TRUE"), null);
        assertThat(run.runDir()).isEqualTo(Path.of("/elsewhere"));
        assertThat(run.pgPort()).isEqualTo(55442);
        assertThat(run.httpPort()).isEqualTo(8580);
        assertThat(run.managementPort()).isEqualTo(10490);
        assertThat(run.resetConfig()).isTrue();
    }

    @Test
    void oldPortVariableStillWorksWithANote() {
        RunSettings run = RunSettings.from(Map.of("DISPATCH_PG_PORT", "55442"), "/repo/.run");
        assertThat(run.pgPort()).isEqualTo(55442);
        assertThat(run.notes()).singleElement().asString().contains("DISPATCH_PG_PORT is deprecated", "DISPATCH_RUN_PG_PORT");
    }

    @Test
    void newPortVariableWinsOverTheOldOne() {
        RunSettings run = RunSettings.from(Map.of("DISPATCH_PG_PORT", "55442", "DISPATCH_RUN_PG_PORT", "55452"), "/r");
        assertThat(run.pgPort()).isEqualTo(55452);
        assertThat(run.notes()).singleElement().asString().contains("ignored");
    }

    @Test
    void refusesBadValuesNamingTheVariable() {
        assertRefused(Map.of("DISPATCH_RUN_PG_PORT", "abc"), "DISPATCH_RUN_PG_PORT='abc'");
        assertRefused(Map.of("DISPATCH_RUN_PG_PORT", "70000"), "DISPATCH_RUN_PG_PORT='70000'");
        assertRefused(Map.of("DISPATCH_PG_PORT", "x1"), "DISPATCH_PG_PORT='x1'");
        assertRefused(Map.of("DISPATCH_RUN_PORT_OFFSET", "-1"), "DISPATCH_RUN_PORT_OFFSET='-1'");
        assertRefused(Map.of("DISPATCH_RUN_PORT_OFFSET", "60000"), "DISPATCH_RUN_PORT_OFFSET='60000'");
        assertRefused(Map.of("DISPATCH_RUN_RESET_CONFIG", "yes"), "DISPATCH_RUN_RESET_CONFIG='yes'");
        assertRefused(Map.of("DISPATCH_RUN_PGPORT", "55442"), "Unknown variable DISPATCH_RUN_PGPORT");
    }

    @Test
    void refusesToStartWithoutARunDirectory() {
        assertRefused(Map.of(), "DISPATCH_RUN_DIR");
    }

    @Test
    void removesItsVariablesFromWildFlysEnvironmentOnly() {
        Map<String, String> env = new HashMap<>(Map.of("DISPATCH_RUN_DIR", "/d", "DISPATCH_RUN_PG_PORT", "1",
                "DISPATCH_RUN_PORT_OFFSET", "5", "DISPATCH_RUN_RESET_CONFIG", "true", "DISPATCH_PG_PORT", "2",
                "DISPATCH_DB_URL", "jdbc:postgresql://db/x", "PATH", "/bin"));
        RunSettings.removeFrom(env);
        assertThat(env).containsOnlyKeys("DISPATCH_DB_URL", "PATH");
    }

    private static void assertRefused(Map<String, String> env, String named) {
        assertThatThrownBy(() -> RunSettings.from(env, env.isEmpty() ? null : "/r"))
                .isInstanceOf(RunSettings.InvalidRunSetting.class)
                .hasMessageContaining(named)
                .extracting(Throwable::getMessage).asString().doesNotContain("\n");
    }
}
