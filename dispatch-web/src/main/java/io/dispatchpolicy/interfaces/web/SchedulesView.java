package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.console.schedule.ScheduleSummary;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * One row per schedule: its job, when it runs in words, its zone, its next three run times, its last
 * occurrence and whether it is enabled. A schedule's own page ({@link ScheduleView}) holds the actions.
 */
@Named
@RequestScoped
public class SchedulesView {

    /** Run times in UTC, ISO-8601: the same text on every node and in every browser. */
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("EEE HH:mm", Locale.ENGLISH);

    @Inject
    @Engine
    ScheduleControl control;

    private List<ScheduleSummary> schedules;
    private String declarationProblem;

    @PostConstruct
    void load() {
        schedules = control.schedules();
        declarationProblem = control.declarationProblem().orElse(null);
    }

    public List<ScheduleSummary> getSchedules() {
        return schedules;
    }

    /** What is wrong with this node's schedules in standalone.xml; null when nothing is. */
    public String getDeclarationProblem() {
        return declarationProblem;
    }

    /** An instant as the schedule pages show it: {@code 2025-03-07T13:00:00Z}; "-" for none. */
    public String utc(Instant instant) {
        return utcText(instant);
    }

    /** The same instant on the schedule's wall clock: {@code Fri 08:00 America/New_York}; empty when unknown. */
    public String local(Instant instant, String zone) {
        return localText(instant, zone);
    }

    static String utcText(Instant instant) {
        return instant == null ? "-" : UTC.format(instant);
    }

    static String localText(Instant instant, String zone) {
        if (instant == null || zone == null || zone.isBlank()) {
            return "";
        }
        try {
            ZoneId id = ZoneId.of(zone);
            return LOCAL.format(instant.atZone(id)) + " " + id.getId();
        } catch (DateTimeException unknownZone) {
            return "";
        }
    }

    /** Where a schedule that the console cannot edit or delete is declared, in words. */
    static String declaredIn(String name, String source) {
        if ("code".equals(source)) {
            return "code (a CDI producer of io.dispatchpolicy.spi.Schedule)";
        }
        if ("config".equals(source)) {
            return "standalone.xml (dispatch.schedule." + name + ".*)";
        }
        if ("api".equals(source)) {
            return "the application's code (created through DispatchSchedules)";
        }
        return source;
    }
}
