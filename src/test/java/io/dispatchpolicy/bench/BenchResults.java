package io.dispatchpolicy.bench;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.stream.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Collects scenario results, prints them as a table and writes {@code results.json}. */
final class BenchResults {

    /** One measured figure; {@code ratios} holds the target checks computed from it. */
    record Result(String name, String unit, double value, Map<String, Double> ratios) {
    }

    /** A target: {@code ratio} of two results (or a value) against a bound. */
    record Target(String name, double actual, String comparison, double bound) {
        boolean met() {
            return comparison.equals(">=") ? actual >= bound : actual <= bound;
        }
    }

    private final List<Result> results = new ArrayList<>();
    private final List<Target> targets = new ArrayList<>();
    private final Map<String, String> notes = new LinkedHashMap<>();

    Result add(String name, String unit, double value) {
        Result r = new Result(name, unit, value, new LinkedHashMap<>());
        results.add(r);
        return r;
    }

    double value(String name) {
        return results.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow().value();
    }

    /** Records a target on the first named result: {@code actual comparison bound}. */
    void target(String attachTo, String name, double actual, String comparison, double bound) {
        results.stream().filter(r -> r.name().equals(attachTo)).findFirst().orElseThrow().ratios().put(name, actual);
        targets.add(new Target(name, actual, comparison, bound));
    }

    void note(String key, String text) {
        notes.put(key, text);
    }

    String table() {
        StringBuilder sb = new StringBuilder("\n");
        sb.append(String.format(Locale.ROOT, "%-58s %14s  %s%n", "scenario", "value", "unit"));
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, "%-58s %14.1f  %s%n", r.name(), r.value(), r.unit()));
        }
        sb.append(String.format(Locale.ROOT, "%n%-58s %14s  %s%n", "target", "actual", "bound"));
        for (Target t : targets) {
            sb.append(String.format(Locale.ROOT, "%-58s %14.2f  %s %.2f  %s%n", t.name(), t.actual(), t.comparison(),
                    t.bound(), t.met() ? "MET" : "MISSED"));
        }
        return sb.toString();
    }

    void write(Path dir) {
        JsonArrayBuilder scenarios = Json.createArrayBuilder();
        for (Result r : results) {
            JsonObjectBuilder ratios = Json.createObjectBuilder();
            r.ratios().forEach(ratios::add);
            scenarios.add(Json.createObjectBuilder().add("name", r.name()).add("unit", r.unit()).add("value", r.value())
                    .add("ratios", ratios));
        }
        JsonArrayBuilder checks = Json.createArrayBuilder();
        for (Target t : targets) {
            checks.add(Json.createObjectBuilder().add("name", t.name()).add("actual", t.actual())
                    .add("comparison", t.comparison()).add("bound", t.bound()).add("met", t.met()));
        }
        JsonObjectBuilder noteObject = Json.createObjectBuilder();
        notes.forEach(noteObject::add);
        StringWriter out = new StringWriter();
        try (var writer = Json.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true)).createWriter(out)) {
            writer.writeObject(Json.createObjectBuilder().add("scenarios", scenarios).add("targets", checks)
                    .add("notes", noteObject).add("machine", machine()).build());
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("results.json"), out.toString());
            Files.writeString(dir.resolve("results.txt"), table());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String machine() {
        Runtime rt = Runtime.getRuntime();
        return rt.availableProcessors() + " cores, " + (rt.maxMemory() >> 20) + " MiB max heap, "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java "
                + System.getProperty("java.version");
    }
}
