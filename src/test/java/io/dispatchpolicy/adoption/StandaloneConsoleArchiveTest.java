package io.dispatchpolicy.adoption;

import io.dispatchpolicy.devserver.Trees;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's standalone WAR carries its own copy of the console contract (ADR 0026), picked by the
 * include/exclude lists of dispatch-web's pom. This test keeps those lists true: every class of ours the
 * WAR's classes refer to is in the WAR (else a page fails with NoClassDefFoundError beside a user's WAR),
 * and no EJB or CDI bean of the engine came along (it would start a second engine in the console).
 */
class StandaloneConsoleArchiveTest {

    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(io\\.dispatchpolicy\\.\\S+)\\s+not found");
    private static final List<String> BEAN_ANNOTATIONS = List.of("Ljakarta/ejb/Stateless;", "Ljakarta/ejb/Singleton;",
            "Ljakarta/ejb/Stateful;", "Ljakarta/ejb/MessageDriven;", "Ljakarta/ejb/Startup;",
            "Ljakarta/enterprise/context/ApplicationScoped;", "Ljakarta/enterprise/context/RequestScoped;",
            "Ljakarta/enterprise/context/Dependent;", "Ljakarta/interceptor/Interceptor;");

    @Test
    void theWarHoldsEveryContractClassItUsesAndNoBeanOfTheEngine() throws IOException {
        Path classes = unzip(Path.of(System.getProperty("adoption.dir"), "artifacts", "dispatch-web-standalone.war"))
                .resolve("WEB-INF/classes");
        assertThat(classes.resolve("io/dispatchpolicy/console/monitoring/Monitoring.class")).exists();

        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none", classes.toString());
        assertThat(exit).as(out.toString()).isZero();
        Set<String> missing = new TreeSet<>();
        for (String line : out.toString().split("\n")) {
            Matcher edge = EDGE.matcher(line);
            if (edge.find()) {
                missing.add(edge.group(2) + " (from " + edge.group(1) + ")");
            }
        }
        assertThat(missing).as("classes of ours the standalone console refers to but does not hold").isEmpty();

        Set<String> beans = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/dispatchpolicy"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString();
                if (name.startsWith("io/dispatchpolicy/interfaces/")) {
                    continue; // the console's own beans
                }
                String bytes = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
                BEAN_ANNOTATIONS.stream().filter(bytes::contains).forEach(a -> beans.add(name + " " + a));
            }
        }
        assertThat(beans).as("engine beans copied into the standalone console").isEmpty();
    }

    private static Path unzip(Path war) throws IOException {
        Path target = war.resolveSibling("standalone-console-classes");
        Trees.delete(target);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                if (!file.startsWith(target)) {
                    continue;
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(in, file);
                }
            }
        }
        return target;
    }
}
