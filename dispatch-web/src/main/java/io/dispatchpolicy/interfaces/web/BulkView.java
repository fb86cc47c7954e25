package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.bulk.BulkActionControl;
import io.dispatchpolicy.console.bulk.BulkActionRefused;
import io.dispatchpolicy.console.bulk.BulkActionView;
import io.dispatchpolicy.console.bulk.BulkKind;
import io.dispatchpolicy.console.bulk.JobFilter;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Bulk view (ADR 0039): a filter and an action, a preview of how many jobs match, then the action run in the
 * background; the recent actions with their progress, cancellable. The engine checks the role and audits.
 */
@Named
@ViewScoped
public class BulkView implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String FORM = "bulk:";
    private static final Pattern AGO = Pattern.compile("-(\\d{1,9})\\s*([smhd])");

    @Inject
    @Engine
    transient BulkActionControl control;

    @Inject
    @Engine
    transient Monitoring monitoring;

    @Inject
    ConsoleUser user;

    private BulkKind kind = BulkKind.DISCARD;
    private String policy;
    private String partition;
    private String job;
    private String from;
    private String to;
    private String parameter;
    private Long matched;

    /** Counts what the action would act on now; nothing is done. */
    public void preview() {
        JobFilter filter = filter();
        if (filter == null) {
            return;
        }
        try {
            matched = control.preview(kind, filter);
            ConsoleUser.info(matched + " job(s) match now: " + kind.verb() + "?");
        } catch (BulkActionRefused refused) {
            error(refused.field(), refused.getMessage());
        }
    }

    /** Starts the action; its progress shows in the list below. */
    public void run() {
        JobFilter filter = filter();
        if (filter == null) {
            return;
        }
        BulkActionView[] started = new BulkActionView[1];
        try {
            if (!user.act(() -> {
                started[0] = control.start(kind, filter, user.getActor());
                return true;
            })) {
                return;
            }
        } catch (BulkActionRefused refused) {
            error(refused.field(), refused.getMessage());
            return;
        }
        matched = null;
        ConsoleUser.info("Bulk action " + started[0].id() + " started: " + kind.verb() + ", " + started[0].matched() + " matched.");
    }

    public void cancel(long id) {
        try {
            if (user.act(() -> {
                control.cancel(id, user.getActor());
                return true;
            })) {
                ConsoleUser.info("Bulk action " + id + " stops after its current batch.");
            }
        } catch (BulkActionRefused refused) {
            ConsoleUser.error(refused.getMessage());
        }
    }

    public List<BulkActionView> getRecent() {
        return control.recent(50);
    }

    private JobFilter filter() {
        try {
            return new JobFilter(policy, partition, job, time("from", from), time("to", to), parameter);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A time: {@code -2h} (ago), {@code +30m}, an instant, or {@code yyyy-MM-dd HH:mm} in the server's zone; blank: none. */
    private static Instant time(String field, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Matcher ago = AGO.matcher(text.strip());
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            return Instant.now().minus(switch (ago.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            });
        }
        try {
            return Formats.parseUntil(text, Instant.now());
        } catch (IllegalArgumentException e) {
            error(field, field + ": " + e.getMessage().replace("+30m, +2h, +1d", "-2h (ago), +30m"));
            throw e;
        }
    }

    private static void error(String field, String text) {
        FacesContext.getCurrentInstance().addMessage(field == null ? null : FORM + field,
                new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null));
    }

    public List<BulkKind> getKinds() {
        return List.of(BulkKind.values());
    }

    public List<String> getPolicyNames() {
        return monitoring.policyNames();
    }

    public BulkKind getKind() {
        return kind;
    }

    public void setKind(BulkKind kind) {
        this.kind = kind;
        this.matched = null;
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    public String getPartition() {
        return partition;
    }

    public void setPartition(String partition) {
        this.partition = partition;
    }

    public String getJob() {
        return job;
    }

    public void setJob(String job) {
        this.job = job;
    }

    public String getFrom() {
        return from;
    }

    public void setFrom(String from) {
        this.from = from;
    }

    public String getTo() {
        return to;
    }

    public void setTo(String to) {
        this.to = to;
    }

    public String getParameter() {
        return parameter;
    }

    public void setParameter(String parameter) {
        this.parameter = parameter;
    }

    public Long getMatched() {
        return matched;
    }
}
