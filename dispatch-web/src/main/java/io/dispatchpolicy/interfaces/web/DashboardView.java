package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.NodeStatus;
import io.dispatchpolicy.console.monitoring.Summary;
import io.dispatchpolicy.console.monitoring.TrendPoint;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.spi.JsonProvider;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** The dashboard: totals, throughput, trend, denials, capacity gauges and hints. */
@Named
@RequestScoped
public class DashboardView {

    /** Looked up once: {@code JSON.createXxx} repeats the provider lookup (a ServiceLoader scan) on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    @Inject
    @Engine
    Monitoring monitoring;

    private Summary summary;
    private NodeStatus node;

    /** Without the database only this node's own status can be shown: the figures are left out. */
    @PostConstruct
    void load() {
        try {
            summary = monitoring.summary();
            node = summary.node();
        } catch (RuntimeException databaseUnreachable) {
            summary = null;
            node = monitoring.nodeStatus();
        }
    }

    /** The figures; null when the database could not be read. */
    public Summary getSummary() {
        return summary;
    }

    public NodeStatus getNode() {
        return node;
    }

    /** Admit rate as a share of the throughput target, or null without a target. */
    public Double getTargetRatio() {
        Double target = summary.throughputTarget();
        return target == null ? null : summary.admittedPerSecond5m() / target;
    }

    public String getTrendArrow() {
        switch (summary.trendDirection()) {
            case "up":
                return "\u2197 growing";
            case "down":
                return "\u2198 shrinking";
            default:
                return "\u2192 steady";
        }
    }

    /** Chart.js configuration for the pending trend (values are numbers and times: nothing to escape). */
    public String getTrendChart() {
        JsonArrayBuilder labels = JSON.createArrayBuilder();
        JsonArrayBuilder values = JSON.createArrayBuilder();
        for (TrendPoint p : summary.pendingTrend()) {
            labels.add(MINUTE.format(p.minute()));
            if (p.pending() == null) {
                values.addNull(); // no tick ran that minute: a gap (spanGaps false), not a line drawn through it
            } else {
                values.add(p.pending());
            }
        }
        return JSON.createObjectBuilder()
                .add("type", "line")
                .add("data", JSON.createObjectBuilder()
                        .add("labels", labels)
                        .add("datasets", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                                .add("label", "Pending jobs")
                                .add("data", values)
                                .add("fill", true)
                                .add("borderColor", "#2563eb")
                                .add("backgroundColor", "rgba(37,99,235,0.12)")
                                .add("tension", 0)
                                .add("spanGaps", false))))
                .add("options", JSON.createObjectBuilder()
                        .add("animation", false)
                        .add("maintainAspectRatio", false)
                        .add("plugins", JSON.createObjectBuilder().add("legend", JSON.createObjectBuilder().add("display", false)))
                        .add("scales", JSON.createObjectBuilder().add("y", JSON.createObjectBuilder().add("beginAtZero", true))))
                .build().toString();
    }
}
