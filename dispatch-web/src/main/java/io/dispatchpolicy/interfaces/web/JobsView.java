package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobQuery;
import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.console.jobs.JobRow;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Jobs view: opens on the lists by state (staged, running, failed in the last hour, dead) with their counts;
 * finds jobs by submission id, execution id, job name, partition, parameter or key. The search
 * is in the address ({@code jobs.xhtml?by=partition&policy=p&value=k}), so a search can be bookmarked
 * or linked from an alert; pages go back in time by keyset ({@code before}), newest first.
 */
@Named
@ViewScoped
public class JobsView implements Serializable {

    private static final long serialVersionUID = 1L;
    static final int PAGE = 50;

    @Inject
    @Engine
    transient JobControl jobs;

    @Inject
    @Engine
    transient Monitoring monitoring;

    private String by = "submission";
    private String value;
    private String policy;
    private long before;
    private List<JobRow> found = List.of();
    private boolean searched;

    /** How many jobs each list by state holds, for the links above the results (read once per view). */
    private java.util.Map<String, Long> counts;

    /** Runs the search in the address (view action); with none, the staged jobs (the lists by state it opens on). */
    public void load() {
        if (value == null || value.isBlank()) {
            by = "state";
            value = "staged";
        }
        try {
            found = jobs.find(new JobQuery(JobQuery.by(by), value, policy, before, PAGE));
            searched = true;
        } catch (JobRequestRefused e) {
            ConsoleUser.error(e.getMessage()); // an application exception: it reaches the view as thrown
        }
    }

    /** The search form: to the address of the search, so the result is bookmarkable. */
    public String search() {
        return "jobs?faces-redirect=true&by=" + enc(by) + "&value=" + enc(value) + (policy == null || policy.isBlank() ? ""
                : "&policy=" + enc(policy));
    }

    /** The next (older) page's address. */
    public String getOlder() {
        return found.size() < PAGE ? null : "?by=" + enc(by) + "&value=" + enc(value)
                + (policy == null ? "" : "&policy=" + enc(policy)) + "&before=" + found.get(found.size() - 1).submissionId();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
    }

    /** The lists by state with their counts: staged, running, failed (last hour), dead. */
    public java.util.Map<String, Long> getCounts() {
        if (counts == null) {
            counts = jobs.stateCounts();
        }
        return counts;
    }

    public List<String> getStates() {
        return io.dispatchpolicy.console.jobs.JobQuery.STATES;
    }

    /** A list's name as its link shows it. */
    public String label(String state) {
        return switch (state) {
            case "staged" -> "Staged";
            case "running" -> "Running";
            case "failed" -> "Failed, last hour";
            default -> "Dead";
        };
    }

    /** Whether the page shows the list of {@code state}. */
    public boolean showing(String state) {
        return "state".equals(by) && state.equals(value);
    }

    public List<JobRow> getFound() {
        return found;
    }

    public boolean isSearched() {
        return searched;
    }

    public List<String> getPolicyNames() {
        return monitoring.policyNames();
    }

    public String getBy() {
        return by;
    }

    public void setBy(String by) {
        this.by = by == null || by.isBlank() ? "submission" : by;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    public long getBefore() {
        return before;
    }

    public void setBefore(long before) {
        this.before = before;
    }
}
