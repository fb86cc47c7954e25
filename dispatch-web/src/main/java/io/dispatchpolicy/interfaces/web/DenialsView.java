package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.DenialRow;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.List;

/** Recent denials by policy, partition and reason. */
@Named
@ViewScoped
public class DenialsView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient Monitoring monitoring;


    private String policy;
    private String reason;
    private String key;
    private int minutes = 60;
    /** Only the partitions denied now: the dashboard's "partitions denied now", row for row. */
    private boolean now;
    private transient List<DenialRow> rows;

    public List<DenialRow> getRows() {
        if (rows == null) {
            rows = now ? monitoring.deniedNow(policy, reason, key)
                    : monitoring.denials(Math.max(1, Math.min(minutes, 7 * 24 * 60)) * 60L, policy, reason, key);
        }
        return rows;
    }

    public boolean isNow() {
        return now;
    }

    public void setNow(boolean now) {
        this.now = now;
    }

    /** Re-reads with the current filters. */
    public void refresh() {
        rows = null;
    }

    public List<String> getPolicyNames() {
        return monitoring.policyNames();
    }

    public List<String> getReasons() {
        return monitoring.denialReasons();
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public int getMinutes() {
        return minutes;
    }

    public void setMinutes(int minutes) {
        this.minutes = minutes;
    }
}
