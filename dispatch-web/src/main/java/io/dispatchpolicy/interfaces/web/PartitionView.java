package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PartitionDetail;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;

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
    private transient PartitionDetail detail;
    // a partition that does not exist reads as null: remember that it was looked for
    private transient boolean loaded;

    /** Called by the view parameter, and by the live refresh. */
    public void load() {
        detail = monitoring.partition(id).orElse(null);
        loaded = true;
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
}
