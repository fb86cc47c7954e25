package io.dispatchpolicy.devserver;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class KeptConfigurationTest {

    @TempDir
    Path tmp;
    Path build;
    Path kept;

    @BeforeEach
    void buildConfiguration() throws IOException {
        build = Files.createDirectories(tmp.resolve("server/standalone/configuration"));
        Files.writeString(build.resolve("standalone.xml"), "<server>build 1</server>");
        Files.writeString(build.resolve("logging.properties"), "build");
        kept = tmp.resolve("run/standalone/configuration");
    }

    private void firstRunThenAnOperatorsChange() throws IOException {
        KeptConfiguration.prepare(build, kept, false);
        Files.writeString(kept.resolve("standalone.xml"), "<server>operator's</server>");
    }

    @Test
    void copiesTheBuildsWhenTheRunHasNone() throws IOException {
        KeptConfiguration.Prepared prepared = KeptConfiguration.prepare(build, kept, false);
        assertThat(prepared.outcome()).isEqualTo(KeptConfiguration.Outcome.COPIED);
        assertThat(Files.readString(kept.resolve("standalone.xml"))).isEqualTo("<server>build 1</server>");
        assertThat(kept.resolve("logging.properties")).exists();
    }

    @Test
    void keepsTheOperatorsChangesAtTheNextStart() throws IOException {
        firstRunThenAnOperatorsChange();
        KeptConfiguration.Prepared prepared = KeptConfiguration.prepare(build, kept, false);
        assertThat(prepared.outcome()).isEqualTo(KeptConfiguration.Outcome.KEPT);
        assertThat(prepared.message()).isEmpty();
        assertThat(Files.readString(kept.resolve("standalone.xml"))).isEqualTo("<server>operator's</server>");
    }

    @Test
    void warnsOnceEachStartWhileTheBuildsDiffersAndKeepsTheOperators() throws IOException {
        firstRunThenAnOperatorsChange();
        Files.writeString(build.resolve("standalone.xml"), "<server>build 2</server>");
        for (int start = 0; start < 2; start++) {
            KeptConfiguration.Prepared prepared = KeptConfiguration.prepare(build, kept, false);
            assertThat(prepared.outcome()).isEqualTo(KeptConfiguration.Outcome.KEPT_BUILD_CHANGED);
            assertThat(prepared.message()).get().asString()
                    .startsWith(KeptConfiguration.BUILD_CHANGED).contains("DISPATCH_RUN_RESET_CONFIG=true", kept.toString())
                    .doesNotContain("\n");
        }
        assertThat(Files.readString(kept.resolve("standalone.xml"))).isEqualTo("<server>operator's</server>");
    }

    @Test
    void resetTakesTheBuildsAndForgetsTheChange() throws IOException {
        firstRunThenAnOperatorsChange();
        Files.writeString(kept.resolve("operator-extra.properties"), "x");
        Files.writeString(build.resolve("standalone.xml"), "<server>build 2</server>");

        assertThat(KeptConfiguration.prepare(build, kept, true).outcome()).isEqualTo(KeptConfiguration.Outcome.RESET);
        assertThat(Files.readString(kept.resolve("standalone.xml"))).isEqualTo("<server>build 2</server>");
        assertThat(kept.resolve("operator-extra.properties")).doesNotExist();
        assertThat(KeptConfiguration.prepare(build, kept, false).outcome()).isEqualTo(KeptConfiguration.Outcome.KEPT);
    }

    @Test
    void deletingTheKeptDirectoryAlsoResets() throws IOException {
        KeptConfiguration.prepare(build, kept, false);
        Files.writeString(build.resolve("standalone.xml"), "<server>build 2</server>");
        Trees.delete(kept);
        assertThat(KeptConfiguration.prepare(build, kept, false).outcome()).isEqualTo(KeptConfiguration.Outcome.COPIED);
        assertThat(Files.readString(kept.resolve("standalone.xml"))).isEqualTo("<server>build 2</server>");
    }

    @Test
    void aRunDirectoryFromBeforeKeepingIsKeptWithoutAWarning() throws IOException {
        Trees.copy(build, kept);
        Files.writeString(kept.resolve("standalone.xml"), "<server>operator's</server>");
        assertThat(KeptConfiguration.prepare(build, kept, false).outcome()).isEqualTo(KeptConfiguration.Outcome.KEPT);
        Files.writeString(build.resolve("standalone.xml"), "<server>build 2</server>");
        assertThat(KeptConfiguration.prepare(build, kept, false).outcome()).isEqualTo(KeptConfiguration.Outcome.KEPT_BUILD_CHANGED);
    }
}
