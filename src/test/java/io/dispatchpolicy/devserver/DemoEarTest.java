package io.dispatchpolicy.devserver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo is the run command's application, deployed beside the engine, and in no built artifact. */
class DemoEarTest {

    private static final Path BUILT = Path.of(System.getProperty("dispatch.ear"));

    @Test
    void theBuiltEarHasNoDemo() throws IOException {
        List<String> entries = entriesOfModules(BUILT);
        assertThat(entries).isNotEmpty();
        assertThat(entries).as("demo entries in the built EAR")
                .filteredOn(e -> e.contains("io/dispatchpolicy/demo/") || e.contains("demo-report") || e.contains("dispatch-demo"))
                .isEmpty();
    }

    @Test
    void theRunCommandsEarAddsTheDemoModule(@TempDir Path deployments) throws IOException {
        Path ear = DemoEar.export(BUILT, deployments);

        assertThat(ear.getFileName()).hasToString("dispatch.ear");
        List<String> entries = entriesOfModules(ear);
        assertThat(entries).contains(
                "dispatch-demo.jar!io/dispatchpolicy/demo/DemoTraffic.class",
                "dispatch-demo.jar!io/dispatchpolicy/demo/DemoPolicies.class",
                "dispatch-demo.jar!io/dispatchpolicy/demo/DemoReportBatchlet.class",
                "dispatch-demo.jar!META-INF/beans.xml",
                "dispatch-demo.jar!META-INF/batch-jobs/demo-report.xml",
                "dispatch-demo.jar!io/dispatchpolicy/demo/PlaygroundPolicies.class",
                "dispatch-demo.jar!io/dispatchpolicy/demo/Storm.class",
                "dispatch-demo.jar!META-INF/batch-jobs/pg-throttle.xml",
                "dispatch-demo.jar!META-INF/batch-jobs/pg-storm.xml",
                "dispatch.war!WEB-INF/classes/io/dispatchpolicy/demo/web/PlaygroundServlet.class");
        assertThat(entries).as("one job XML per playground feature")
                .filteredOn(e -> e.matches("dispatch-demo\\.jar!META-INF/batch-jobs/pg-[a-z]+\\.xml")).hasSize(15);
        // the console's WAR keeps everything it had
        assertThat(entries).containsAll(entriesOfModules(BUILT).stream().filter(e -> e.startsWith("dispatch.war!")).toList());
        // the built modules as they were
        assertThat(entries.stream().map(e -> e.substring(0, e.indexOf('!'))).distinct())
                .containsAll(entriesOfModules(BUILT).stream().map(e -> e.substring(0, e.indexOf('!'))).distinct().toList());
    }

    /** {@code module!entry} for every entry of every jar or war in the EAR (modules and libraries). */
    private static List<String> entriesOfModules(Path ear) throws IOException {
        List<String> entries = new ArrayList<>();
        try (ZipFile zip = new ZipFile(ear.toFile())) {
            for (ZipEntry module : zip.stream().filter(e -> e.getName().matches(".+\\.(jar|war)")).toList()) {
                try (InputStream in = zip.getInputStream(module); ZipInputStream inner = new ZipInputStream(in)) {
                    for (ZipEntry e = inner.getNextEntry(); e != null; e = inner.getNextEntry()) {
                        entries.add(module.getName() + "!" + e.getName());
                    }
                }
            }
        }
        return entries;
    }
}
