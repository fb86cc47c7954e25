package io.dispatchpolicy.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of the server's Prometheus endpoint, as a metrics stack reads it. */
final class Scrape {

    static final URI ENDPOINT = URI.create("http://127.0.0.1:9990/prometheus");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final String text;

    private Scrape(String text) {
        this.text = text;
    }

    static Scrape now() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(ENDPOINT).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + ENDPOINT + " answered " + response.statusCode() + ": " + response.body());
        }
        return new Scrape(response.body());
    }

    String text() {
        return text;
    }

    /** The sum of the samples of {@code name} whose labels include {@code labels} (name, value pairs); 0 when none. */
    double value(String name, String... labels) {
        double sum = 0;
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line.strip());
            if (line.startsWith("#") || !m.matches() || !m.group(1).equals(name)) {
                continue;
            }
            Map<String, String> has = new HashMap<>();
            Matcher l = LABEL.matcher(m.group(2) == null ? "" : m.group(2));
            while (l.find()) {
                has.put(l.group(1), l.group(2));
            }
            boolean matches = true;
            for (int i = 0; i < labels.length; i += 2) {
                matches &= labels[i + 1].equals(has.get(labels[i]));
            }
            if (matches) {
                sum += Double.parseDouble(m.group(3));
            }
        }
        return sum;
    }

    /** Whether any sample of {@code name} is present. */
    boolean has(String name) {
        return text.lines().anyMatch(line -> line.startsWith(name + "{") || line.startsWith(name + " "));
    }
}
