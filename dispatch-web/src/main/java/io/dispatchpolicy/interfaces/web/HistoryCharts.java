package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.HistoryPoint;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Chart.js configuration of a history: admitted, completed and failed per minute (numbers and times: nothing to escape). */
final class HistoryCharts {

    /** The window the policy and partition pages chart. */
    static final int MINUTES = 120;

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    private HistoryCharts() {
    }

    static String of(List<HistoryPoint> history) {
        JsonArrayBuilder labels = JSON.createArrayBuilder();
        JsonArrayBuilder admitted = JSON.createArrayBuilder();
        JsonArrayBuilder completed = JSON.createArrayBuilder();
        JsonArrayBuilder failed = JSON.createArrayBuilder();
        for (HistoryPoint p : history) {
            labels.add(MINUTE.format(p.minute()));
            admitted.add(p.admitted());
            completed.add(p.completed());
            failed.add(p.failed());
        }
        return JSON.createObjectBuilder()
                .add("type", "line")
                .add("data", JSON.createObjectBuilder()
                        .add("labels", labels)
                        .add("datasets", JSON.createArrayBuilder()
                                .add(dataset("Admitted", admitted, "#2563eb"))
                                .add(dataset("Completed", completed, "#16a34a"))
                                .add(dataset("Failed", failed, "#dc2626"))))
                .add("options", JSON.createObjectBuilder()
                        .add("animation", false)
                        .add("maintainAspectRatio", false)
                        .add("scales", JSON.createObjectBuilder().add("y", JSON.createObjectBuilder().add("beginAtZero", true)
                                .add("title", JSON.createObjectBuilder().add("display", true).add("text", "per minute")))))
                .build().toString();
    }

    private static JsonObjectBuilder dataset(String label, JsonArrayBuilder values, String color) {
        return JSON.createObjectBuilder().add("label", label).add("data", values).add("borderColor", color)
                .add("backgroundColor", color).add("pointRadius", 0).add("borderWidth", 2)
                // straight segments between minutes: a smoothed curve draws humps and dips that never happened
                .add("tension", 0);
    }
}
