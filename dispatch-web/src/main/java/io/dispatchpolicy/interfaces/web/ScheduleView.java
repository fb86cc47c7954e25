package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.console.schedule.ScheduleDetail;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * One schedule: its definition, next run times, upcoming occurrences, history and skipped runs; for
 * admins enable, disable, skip next, run now, and (console-created schedules only) edit and delete.
 * Every action checks the role here, whatever the page showed.
 */
@Named
@ViewScoped
public class ScheduleView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient ScheduleControl control;

    @Inject
    ConsoleUser user;

    private String name;
    private transient ScheduleDetail detail;
    // a schedule that does not exist reads as null: remember that it was looked for
    private transient boolean loaded;

    /** Called by the view parameter, after each action, and by the live refresh. */
    public void load() {
        detail = name == null ? null : control.schedule(name).orElse(null);
        loaded = true;
    }

    public ScheduleDetail getDetail() {
        if (!loaded) {
            load();
        }
        return detail;
    }

    /** True when the console may edit and delete this schedule: it was created here. */
    public boolean isConsoleOwned() {
        ScheduleDetail d = getDetail();
        return d != null && "console".equals(d.summary().source());
    }

    /** Where a declared schedule is changed, in words; null for a console-created one. */
    public String getDeclaredIn() {
        ScheduleDetail d = getDetail();
        return d == null || isConsoleOwned() ? null : SchedulesView.declaredIn(name, d.summary().source());
    }

    public void enable() {
        act(() -> {
            boolean staged = control.enable(name, user.getActor());
            return "Schedule " + name + " enabled" + (staged ? ": its next run is staged." : ".");
        });
    }

    public void disable() {
        act(() -> control.disable(name, user.getActor())
                ? "Schedule " + name + " disabled: its future run is withdrawn; runs already started go on."
                : "Schedule " + name + " was disabled already.");
    }

    public void skipNext() {
        act(() -> control.skipNext(name, user.getActor())
                .map(t -> "Skipped the run of " + name + " at " + SchedulesView.utcText(t) + ".")
                .orElse("Nothing to skip: " + name + " has no future run."));
    }

    public void runNow() {
        act(() -> "An extra run of " + name + " is due now (submission "
                + control.runNow(name, user.getActor()) + "); it passes its policy's gates like any job.");
    }

    /**
     * An action on this schedule: the engine checks the user's roles and audits it (whatever the page shows);
     * its outcome, or the engine's refusal, as the page's message; then the page reloaded.
     */
    private void act(Supplier<String> action) {
        try {
            if (!user.act(() -> {
                ConsoleUser.info(action.get());
                return true;
            })) {
                return;
            }
        } catch (ScheduleActionRefused | SubmissionRejectedException | IllegalArgumentException refused) {
            error(refused.getMessage());
        }
        load();
    }

    /** Deletes a console-created schedule, then shows the list; past executions stay. */
    public String delete() {
        if (getDetail() == null) {
            error("There is no schedule named " + name + " (any more).");
            return null;
        }
        if (!isConsoleOwned()) {
            error("Schedule " + name + " is declared in " + getDeclaredIn() + ": delete it there, not in the console.");
            return null;
        }
        try {
            if (!user.act(() -> {
                control.delete(name, user.getActor());
                return true;
            })) {
                return null;
            }
        } catch (ScheduleActionRefused | SubmissionRejectedException | IllegalArgumentException refused) {
            error(refused.getMessage());
            load();
            return null;
        }
        FacesContext.getCurrentInstance().getExternalContext().getFlash().setKeepMessages(true);
        ConsoleUser.info("Schedule " + name + " deleted; its past executions stay.");
        return "schedules?faces-redirect=true";
    }

    public String utc(Instant instant) {
        return SchedulesView.utcText(instant);
    }

    public String local(Instant instant, String zone) {
        return SchedulesView.localText(instant, zone);
    }

    private static void error(String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null));
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        // a postback without the view parameter (every ajax action after the first) leaves the one already shown
        if (name != null) {
            this.name = name;
        }
    }

}
