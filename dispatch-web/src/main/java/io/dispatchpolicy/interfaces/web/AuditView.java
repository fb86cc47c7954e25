package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.audit.AuditEntry;
import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.audit.AuditQuery;
import io.dispatchpolicy.console.audit.OperatorAction;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.Arrays;
import java.util.List;

/**
 * The audit log, newest first, filtered by who, what and which object; the pages of jobs, partitions,
 * policies and schedules link here with their object filled in.
 */
@Named
@RequestScoped
public class AuditView {

    static final int ROWS = 200;

    @Inject
    @Engine
    AuditLog audit;

    private String actor;
    private String action;
    private String targetKind;
    private String target;
    private List<AuditEntry> entries;

    public List<AuditEntry> getEntries() {
        if (entries == null) {
            try {
                entries = audit.find(new AuditQuery(actor, action, targetKind, target, ROWS));
            } catch (IllegalArgumentException bad) {
                ConsoleUser.error(bad.getMessage());
                entries = List.of();
            }
        }
        return entries;
    }

    public List<String> getActions() {
        return Arrays.stream(OperatorAction.values()).map(Enum::name).toList();
    }

    public List<String> getTargetKinds() {
        return Arrays.stream(OperatorAction.values()).map(OperatorAction::targetKind).distinct().sorted().toList();
    }

    /** The console page of an entry's object, or null when it has none. */
    public String link(AuditEntry e) {
        return switch (e.targetKind()) {
            case "job" -> "job.xhtml?id=" + e.target();
            case "group" -> "group.xhtml?id=" + e.target();
            case "partition" -> "partition.xhtml?id=" + e.target();
            case "schedule" -> "schedule.xhtml?name=" + java.net.URLEncoder.encode(e.target(), java.nio.charset.StandardCharsets.UTF_8);
            default -> null;
        };
    }

    public String getActor() {
        return actor;
    }

    public void setActor(String actor) {
        this.actor = actor;
    }

    public String getAction() {
        return action;
    }

    public void setAction(String action) {
        this.action = action;
    }

    public String getTargetKind() {
        return targetKind;
    }

    public void setTargetKind(String targetKind) {
        this.targetKind = targetKind;
    }

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }
}
