package io.dispatchpolicy.guide;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation as a newcomer meets it (issue 37, deliverable 6): a short README whose links resolve and whose
 * Java is the compiled snippets' text, and a site with every page and no broken link. Runs after the site is built
 * (Asciidoctor at process-classes, the tests at test).
 */
class DocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SITE = Path.of("target/site");
    private static final Path PAGES = Path.of("src/docs/asciidoc");
    private static final Path SNIPPETS = Path.of("src/main");

    @Test
    void theReadmeIsShortAndEveryLinkResolves() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        assertThat(readme.size()).as("README lines").isLessThan(200);
        List<String> broken = new ArrayList<>();
        Matcher link = Pattern.compile("\\]\\(([^)\\s]+)\\)").matcher(String.join("\n", readme));
        while (link.find()) {
            String target = link.group(1);
            if (target.matches("^(https?|mailto):.*") || target.startsWith("#")) {
                continue;
            }
            if (!Files.exists(ROOT.resolve(target.replaceAll("#.*$", "")))) {
                broken.add(target);
            }
        }
        assertThat(broken).as("README links to nothing").isEmpty();
    }

    @Test
    void theReadmesCodeIsTheCompiledSnippets() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        List<String> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SNIPPETS)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sources.add(withoutTags(Files.readString(f)));
            }
        }
        Matcher block = Pattern.compile("```(java|xml)\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        int blocks = 0;
        while (block.find()) {
            blocks++;
            String code = block.group(2).strip();
            assertThat(sources).as("a compiled snippet containing README's %s block:%n%s", block.group(1), code)
                    .anySatisfy(s -> assertThat(s).contains(code));
        }
        assertThat(blocks).as("README's code blocks").isGreaterThanOrEqualTo(4);
    }

    @Test
    void theSiteHasEveryPageTheGeneratedReferenceAndNoBrokenLink() throws IOException {
        List<Path> pages;
        try (Stream<Path> files = Files.walk(PAGES)) {
            pages = files.filter(f -> f.toString().endsWith(".adoc")).map(PAGES::relativize).toList();
        }
        assertThat(pages).hasSizeGreaterThan(20);
        for (Path page : pages) {
            assertThat(SITE.resolve(page.toString().replaceAll("\\.adoc$", ".html"))).as("the site's page of %s", page).exists();
        }
        assertThat(Files.readString(SITE.resolve("reference/settings.html"))).contains("dispatch.tick-workers")
                .contains("dispatch.webhook").doesNotContain("Unresolved directive");
        List<String> broken = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SITE)) {
            for (Path html : files.filter(f -> f.toString().endsWith(".html")).toList()) {
                String text = Files.readString(html);
                assertThat(text).as("%s: an include the build could not resolve", html).doesNotContain("Unresolved directive");
                Matcher ref = Pattern.compile("(?:href|src)=\"([^\"]+)\"").matcher(text);
                while (ref.find()) {
                    String target = ref.group(1);
                    if (target.matches("^(https?|mailto|data):.*") || target.startsWith("#")) {
                        continue;
                    }
                    if (!Files.exists(html.getParent().resolve(target.replaceAll("#.*$", "")))) {
                        broken.add(SITE.relativize(html) + " -> " + target);
                    }
                }
            }
        }
        assertThat(broken).as("links of the site to nothing").isEmpty();
    }

    /** A snippet file as the guide shows it: without its tag lines. */
    private static String withoutTags(String source) {
        return source.lines().filter(l -> !l.matches("\\s*(//|<!--) (tag|end)::.*")).reduce("", (a, b) -> a + b + "\n");
    }
}
