package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PartitionDetail;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import io.dispatchpolicy.console.OverrideChange;
import io.dispatchpolicy.console.OverrideRefused;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One partition: its context, gate state, why it waits, its staged jobs; force-admit and drain for admins. */
@Named
@ViewScoped
public class PartitionView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient Monitoring monitoring;

    @Inject
    @Engine
    transient PartitionControl control;

    @Inject
    ConsoleUser user;

    private long id;
    private int forceCount = 1;
    /** The override form: "gate|<id>|<param>" or "lane|<lane>|<param>", the value, and when it ends. */
    private String overrideTarget;
    private String overrideValue;
    private String overrideUntil;
    private transient PartitionDetail detail;
    // a partition that does not exist reads as null: remember that it was looked for
    private transient boolean loaded;

    /** Called by the view parameter, and by the live refresh. */
    public void load() {
        detail = monitoring.partition(id).orElse(null);
        loaded = true;
    }

    /** Whether this deployment declares the partition's policy: only then are its actions offered. */
    public boolean isDeclared() {
        return detail != null && monitoring.policyNames().contains(detail.partition().getPolicyName());
    }

    public PartitionDetail getDetail() {
        if (!loaded) {
            load();
        }
        return detail;
    }

    /** The partition's admitted, completed and failed jobs per minute over the last {@link HistoryCharts#MINUTES}. */
    public String getHistoryChart() {
        return HistoryCharts.of(monitoring.partitionHistory(id, HistoryCharts.MINUTES));
    }

    public void forceAdmit() {
        ForcedAdmission[] forced = {null};
        if (user.act(() -> {
            forced[0] = control.forceAdmit(id, Math.max(1, Math.min(forceCount, 10_000)), user.getActor());
            return true;
        })) {
            ForcedAdmission result = forced[0];
            if (result.refused() != null) {
                ConsoleUser.error(result.refused());
                return;
            }
            ConsoleUser.info(result.admitted() + " job(s) admitted now"
                    + (result.parked() == 0 ? "." : "; " + result.parked() + " parked: " + String.join("; ", result.failures())));
            load();
        }
    }

    public void drain() {
        int[] drained = {0};
        if (user.act(() -> {
            drained[0] = control.drain(id, user.getActor());
            return true;
        })) {
            ConsoleUser.info("Drained: " + drained[0] + " staged job(s) deleted.");
            load();
        }
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public int getForceCount() {
        return forceCount;
    }

    public void setForceCount(int forceCount) {
        this.forceCount = forceCount;
    }

    /** What the override form offers: each gate parameter of the policy, and the lane's weight and min. */
    public List<String[]> getOverrideTargets() {
        List<String[]> targets = new ArrayList<>();
        PartitionDetail d = getDetail();
        if (d == null) {
            return targets;
        }
        d.gateParams().forEach((gate, params) -> params.forEach(param ->
                targets.add(new String[] {"gate|" + gate + "|" + param, "gate " + gate + " · " + param})));
        String lane = d.partition().getLane();
        if (!lane.isEmpty()) {
            targets.add(new String[] {"lane|" + lane + "|weight", "lane " + lane + " · weight"});
            targets.add(new String[] {"lane|" + lane + "|min", "lane " + lane + " · min"});
        }
        return targets;
    }

    public void setOverride() {
        String[] target = overrideTarget == null ? new String[0] : overrideTarget.split("\\|", 3);
        if (target.length != 3) {
            fieldError("override-target", "Choose what to override");
            return;
        }
        Double value;
        try {
            value = Double.valueOf(overrideValue == null ? "" : overrideValue.strip());
        } catch (NumberFormatException e) {
            fieldError("override-value", "Value: '" + overrideValue + "' is not a number");
            return;
        }
        Instant until;
        try {
            until = Formats.parseUntil(overrideUntil, Instant.now());
        } catch (IllegalArgumentException e) {
            fieldError("override-until", "Until: " + e.getMessage());
            return;
        }
        String[] said = {null};
        try {
            if (user.act(() -> {
                said[0] = control.setOverride(id, new OverrideChange(target[0], target[1], target[2], value, until), user.getActor());
                return true;
            })) {
                ConsoleUser.info("Override set: " + said[0] + ". It applies from the next tick.");
                overrideValue = null;
                overrideUntil = null;
                load();
            }
        } catch (OverrideRefused refused) {
            fieldError(switch (refused.field()) {
                case "value" -> "override-value";
                case "until" -> "override-until";
                case "partition" -> null;
                default -> "override-target";
            }, refused.getMessage());
        }
    }

    public void clearOverride(String kind, String scope, String param) {
        boolean[] was = {false};
        if (user.act(() -> {
            was[0] = control.clearOverride(id, kind, scope, param, user.getActor());
            return true;
        })) {
            ConsoleUser.info(was[0] ? "Override cleared: the policy's value applies from the next tick." : "No override was in force.");
            load();
        }
    }

    /** An error shown beside the form's field (and in the page's messages). */
    private static void fieldError(String field, String text) {
        FacesContext ctx = FacesContext.getCurrentInstance();
        FacesMessage message = new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null);
        ctx.addMessage(field == null ? null : "partition:" + field, message);
    }

    public String getOverrideTarget() {
        return overrideTarget;
    }

    public void setOverrideTarget(String overrideTarget) {
        this.overrideTarget = overrideTarget;
    }

    public String getOverrideValue() {
        return overrideValue;
    }

    public void setOverrideValue(String overrideValue) {
        this.overrideValue = overrideValue;
    }

    public String getOverrideUntil() {
        return overrideUntil;
    }

    public void setOverrideUntil(String overrideUntil) {
        this.overrideUntil = overrideUntil;
    }
}
