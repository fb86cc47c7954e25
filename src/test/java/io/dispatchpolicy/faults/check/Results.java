package io.dispatchpolicy.faults.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes one scenario's result as {@code <dir>/<scenario>/result.json} and {@code summary.md}, then
 * rebuilds {@code <dir>/results.json} (an array of every scenario's result) and {@code results.md}
 * from all scenario directories, so running one scenario alone keeps the others' latest results.
 */
public final class Results {

    private Results() {
    }

    /** Records the result (an ordered map of plain values) and returns its markdown summary. */
    public static String record(Path faultsDir, String scenario, Map<String, Object> result) {
        String markdown = markdown(scenario, result);
        try {
            Path dir = faultsDir.resolve(scenario);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("result.json"), json(result, "") + "\n");
            Files.writeString(dir.resolve("summary.md"), markdown);
            List<Path> scenarios;
            try (Stream<Path> dirs = Files.list(faultsDir)) {
                scenarios = dirs.filter(d -> Files.exists(d.resolve("result.json"))).sorted().toList();
            }
            List<String> results = new ArrayList<>();
            StringBuilder all = new StringBuilder("# Fault suite results\n\n");
            for (Path d : scenarios) {
                results.add(Files.readString(d.resolve("result.json")).strip());
                all.append(Files.readString(d.resolve("summary.md"))).append('\n');
            }
            Files.writeString(faultsDir.resolve("results.json"), "[\n" + String.join(",\n", results) + "\n]\n",
                    StandardCharsets.UTF_8);
            Files.writeString(faultsDir.resolve("results.md"), all.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return markdown;
    }

    private static String markdown(String scenario, Map<String, Object> result) {
        StringBuilder md = new StringBuilder("## ").append(scenario).append("\n\n| | |\n|---|---|\n");
        result.forEach((key, value) -> {
            if (!"violations".equals(key)) {
                md.append("| ").append(key).append(" | ").append(cell(value)).append(" |\n");
            }
        });
        Object violations = result.get("violations");
        if (violations instanceof Collection<?> list && !list.isEmpty()) {
            md.append("\n**Violations:**\n\n");
            list.forEach(v -> md.append("- ").append(v).append('\n'));
        } else {
            md.append("\nAll invariants hold.\n");
        }
        return md.toString();
    }

    private static String cell(Object value) {
        String text = value instanceof Collection<?> c
                ? c.stream().map(String::valueOf).collect(Collectors.joining("<br>"))
                : String.valueOf(value);
        return text.replace("|", "\\|").replace("\n", "<br>");
    }

    /** Plain values only: maps, collections, strings, numbers, booleans, null. */
    static String json(Object value, String indent) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String inner = indent + "  ";
        if (value instanceof Map<?, ?> map) {
            return map.isEmpty() ? "{}" : map.entrySet().stream()
                    .map(e -> inner + quote(String.valueOf(e.getKey())) + ": " + json(e.getValue(), inner))
                    .collect(Collectors.joining(",\n", "{\n", "\n" + indent + "}"));
        }
        if (value instanceof Collection<?> list) {
            return list.isEmpty() ? "[]" : list.stream().map(v -> inner + json(v, inner))
                    .collect(Collectors.joining(",\n", "[\n", "\n" + indent + "]"));
        }
        return quote(value.toString());
    }

    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
