package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.console.schedule.ScheduleDetail;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates a schedule, or edits a console-created one (the {@code name} view parameter). A mistake is
 * shown as an error naming the field, and the form keeps what was typed; saving needs the admin role.
 */
@Named
@ViewScoped
public class ScheduleFormView implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String ANCHOR = "anchor";
    public static final String CRON = "cron";
    public static final String DELAY = "delay";
    private static final String FORM = "scheduleForm:";
    private static final String ANCHOR_EXAMPLE = "2025-01-01T10:00";

    @Inject
    @Engine
    transient ScheduleControl control;

    @Inject
    ConsoleUser user;

    /** The schedule being edited (view parameter); null when creating one. */
    private String editName;
    /** Its source once read: only "console" schedules are edited here. */
    private String source;
    private boolean loaded;

    private String name;
    private String jobName;
    private String parameters;
    private String mode = ANCHOR;
    private String anchor;
    private Integer interval = 1;
    private ScheduleUnit unit = ScheduleUnit.DAYS;
    private String cron;
    private String zone = "UTC";
    private Integer priority;
    private String lane;
    private boolean catchUp;
    private boolean enabled = true;
    /** Seconds after each run time an occurrence may still be admitted; null: none of its own. */
    private Long deadline;
    // fixed-delay mode (ADR 0054): whole seconds after each run's end
    private Long delay;
    // a calendar of excluded times (ADR 0053) and what becomes of an excluded run time
    private String calendar;
    private String excluded = "skip";

    /** Called by the view action: fills the form from the schedule being edited, once. */
    public void load() {
        if (loaded || editName == null || editName.isBlank()) {
            return;
        }
        loaded = true;
        Optional<ScheduleDetail> found = control.schedule(editName);
        if (found.isEmpty()) {
            error(null, "There is no schedule named " + editName + " (any more).");
            return;
        }
        ScheduleDetail detail = found.get();
        source = detail.summary().source();
        ScheduleDefinition d = detail.definition();
        name = d.name();
        jobName = d.jobName();
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> p : d.parameters().entrySet()) {
            text.append(p.getKey()).append('=').append(p.getValue()).append('\n');
        }
        parameters = text.toString();
        zone = d.zone().getId();
        if (d.cron() != null) {
            mode = CRON;
            cron = d.cron();
        } else if (d.delay() != null) {
            mode = DELAY;
            delay = d.delay().toSeconds();
        } else {
            mode = ANCHOR;
            anchor = d.anchor() == null ? null : LocalDateTime.ofInstant(d.anchor(), d.zone()).toString();
            interval = d.intervalCount();
            unit = d.unit();
        }
        priority = d.priority();
        lane = d.lane();
        catchUp = d.catchUp();
        enabled = d.enabled();
        deadline = d.deadline() == null ? null : d.deadline().toSeconds();
        calendar = d.calendar();
        excluded = d.excluded() == null ? "skip" : d.excluded().label();
    }

    /** True when the form edits an existing schedule (its name is then read-only). */
    public boolean isEditing() {
        return editName != null && !editName.isBlank();
    }

    /** True when saving is possible: a new schedule, or an existing console-created one. */
    public boolean isEditable() {
        return !isEditing() || "console".equals(source);
    }

    /** Where a declared schedule is changed, in words; null when the console may edit it. */
    public String getDeclaredIn() {
        return isEditing() && source != null && !isEditable() ? SchedulesView.declaredIn(editName, source) : null;
    }

    /** Creates or edits the schedule, then shows its page; on a mistake stays here with the input kept. */
    public String save() {
        boolean editing = isEditing();
        if (editing && source == null) {
            error(null, "There is no schedule named " + editName + " (any more).");
            return null;
        }
        if (!isEditable()) {
            error(null, "Schedule " + editName + " is declared in " + getDeclaredIn() + ": change it there, not in the console.");
            return null;
        }
        String scheduleName = editing ? editName : trimmed(name);
        ScheduleDefinition definition;
        try {
            definition = definition(scheduleName);
        } catch (FieldError e) {
            error(e.clientId, e.getMessage());
            return null;
        }
        try {
            if (!user.act(() -> {
                if (editing) {
                    control.edit(scheduleName, definition, user.getActor());
                } else {
                    control.create(definition, user.getActor());
                }
                return true;
            })) {
                return null;
            }
        } catch (ScheduleDeclarationException | ScheduleActionRefused | SubmissionRejectedException | IllegalArgumentException refused) {
            error(null, refused.getMessage());
            return null;
        }
        FacesContext.getCurrentInstance().getExternalContext().getFlash().setKeepMessages(true);
        ConsoleUser.info("Schedule " + scheduleName + (editing ? " saved." : " created."));
        return "schedule?faces-redirect=true&name=" + scheduleName;
    }

    private ScheduleDefinition definition(String scheduleName) {
        if (scheduleName == null) {
            throw new FieldError("name", "Name: required, 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit.");
        }
        Map<String, String> params = parseParameters(parameters);
        ZoneId zoneId;
        try {
            zoneId = ScheduleDefinition.parseZone(scheduleName, zone);
        } catch (ScheduleDeclarationException e) {
            throw new FieldError("zone", e.getMessage());
        }
        Instant anchorAt = null;
        Integer intervalCount = null;
        ScheduleUnit intervalUnit = null;
        String cronText = null;
        java.time.Duration after = null;
        if (CRON.equals(mode)) {
            cronText = cron == null ? "" : cron.strip();
        } else if (DELAY.equals(mode)) {
            if (delay == null || delay < 1 || delay > ScheduleDefinition.MAX_DELAY.toSeconds()) {
                throw new FieldError("delay", "Delay: whole seconds after each run ended, 1 to " + ScheduleDefinition.MAX_DELAY.toSeconds()
                        + " (" + ScheduleDefinition.MAX_DELAY.toDays() + " days)" + (delay == null ? "; required in this mode." : "; was " + delay + "."));
            }
            if (catchUp) {
                throw new FieldError("catchUp", "Catch up missed runs: not with a delay after each end (such a schedule never misses a run).");
            }
            after = java.time.Duration.ofSeconds(delay);
        } else {
            anchorAt = parseAnchor(scheduleName, zoneId);
            intervalCount = interval;
            intervalUnit = unit;
        }
        if (deadline != null && (deadline < 1 || deadline > ScheduleDefinition.MAX_DEADLINE.toSeconds())) {
            throw new FieldError("deadline", "Deadline: whole seconds after each run time, 1 to "
                    + ScheduleDefinition.MAX_DEADLINE.toSeconds() + " (" + ScheduleDefinition.MAX_DEADLINE.toDays()
                    + " days), or empty for none; was " + deadline + ".");
        }
        try {
            return new ScheduleDefinition(scheduleName, trimmed(jobName), params, anchorAt, intervalCount, intervalUnit, cronText,
                    zoneId, priority, trimmed(lane), catchUp, enabled, null,
                    deadline == null ? null : java.time.Duration.ofSeconds(deadline), after, trimmed(calendar),
                    trimmed(calendar) == null ? null : io.dispatchpolicy.spi.Excluded.parse(scheduleName, excluded));
        } catch (ScheduleDeclarationException e) {
            throw new FieldError("parameters", e.getMessage());
        }
    }

    private Instant parseAnchor(String scheduleName, ZoneId zoneId) {
        String text = trimmed(anchor);
        if (text == null) {
            throw new FieldError("anchor", "Anchor: required in anchor mode, a local date-time in the schedule's zone like "
                    + ANCHOR_EXAMPLE + " (the first run, from which every run is counted).");
        }
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(text);
        } catch (DateTimeParseException e) {
            throw new FieldError("anchor", "Anchor: '" + text + "' is not a local date-time like " + ANCHOR_EXAMPLE + ".");
        }
        try {
            // the engine's rule for a local time in a zone (a time the clocks skip is refused, naming the field)
            return ScheduleDefinition.anchorAt(scheduleName, local, zoneId);
        } catch (ScheduleDeclarationException e) {
            throw new FieldError("anchor", e.getMessage());
        }
    }

    /** One {@code key=value} per line; blank lines are ignored. */
    static Map<String, String> parseParameters(String text) {
        Map<String, String> params = new LinkedHashMap<>();
        if (text == null) {
            return params;
        }
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new FieldError("parameters", "Parameters, line " + (i + 1) + ": '" + line
                        + "' has no '=': write one key=value per line.");
            }
            String key = line.substring(0, eq).strip();
            if (key.isEmpty()) {
                throw new FieldError("parameters", "Parameters, line " + (i + 1) + ": '" + line + "' has no name before '='.");
            }
            if (params.put(key, line.substring(eq + 1).strip()) != null) {
                throw new FieldError("parameters", "Parameters, line " + (i + 1) + ": '" + key + "' is given twice.");
            }
        }
        return params;
    }

    private static String trimmed(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    private static void error(String field, String text) {
        FacesContext.getCurrentInstance().addMessage(field == null ? null : FORM + field,
                new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null));
    }

    /** A form field that cannot be read; the message names it. */
    static final class FieldError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String clientId;

        FieldError(String clientId, String message) {
            super(message);
            this.clientId = clientId;
        }
    }

    public List<ScheduleUnit> getUnits() {
        return List.of(ScheduleUnit.values());
    }

    public String getEditName() {
        return editName;
    }

    public void setEditName(String editName) {
        // a postback without the view parameter keeps the schedule being edited
        if (editName != null) {
            this.editName = editName;
        }
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getJobName() {
        return jobName;
    }

    public void setJobName(String jobName) {
        this.jobName = jobName;
    }

    public String getParameters() {
        return parameters;
    }

    public void setParameters(String parameters) {
        this.parameters = parameters;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getAnchor() {
        return anchor;
    }

    public void setAnchor(String anchor) {
        this.anchor = anchor;
    }

    public Integer getInterval() {
        return interval;
    }

    public void setInterval(Integer interval) {
        this.interval = interval;
    }

    public ScheduleUnit getUnit() {
        return unit;
    }

    public void setUnit(ScheduleUnit unit) {
        this.unit = unit;
    }

    public String getCron() {
        return cron;
    }

    public void setCron(String cron) {
        this.cron = cron;
    }

    public String getZone() {
        return zone;
    }

    public void setZone(String zone) {
        this.zone = zone;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public String getLane() {
        return lane;
    }

    public void setLane(String lane) {
        this.lane = lane;
    }

    public boolean isCatchUp() {
        return catchUp;
    }

    public void setCatchUp(boolean catchUp) {
        this.catchUp = catchUp;
    }

    public Long getDeadline() {
        return deadline;
    }

    public void setDeadline(Long deadline) {
        this.deadline = deadline;
    }

    public String getCalendar() {
        return calendar;
    }

    public void setCalendar(String calendar) {
        this.calendar = calendar;
    }

    public String getExcluded() {
        return excluded;
    }

    public void setExcluded(String excluded) {
        this.excluded = excluded;
    }

    public Long getDelay() {
        return delay;
    }

    public void setDelay(Long delay) {
        this.delay = delay;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
