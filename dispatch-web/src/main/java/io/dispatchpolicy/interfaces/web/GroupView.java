package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;

/** One group's progress ({@code group.xhtml?id=…}, ADR 0052): its members by state, its callbacks; cancel for operators. */
@Named
@ViewScoped
public class GroupView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient JobControl jobs;

    @Inject
    ConsoleUser user;

    private long id;
    private transient GroupStatus group;
    private transient boolean loaded;

    public void load() {
        group = jobs.group(id).orElse(null);
        loaded = true;
    }

    public GroupStatus getGroup() {
        if (!loaded) {
            load();
        }
        return group;
    }

    /** Offered while the group has members to discard and callbacks to skip: neither ended nor cancelled. */
    public boolean isCancellable() {
        GroupStatus g = getGroup();
        return g != null && g.cancelledAt() == null && g.endedAt() == null;
    }

    public void cancel() {
        try {
            user.act(() -> {
                ConsoleUser.info(jobs.cancelGroup(id, user.getActor()));
                return true;
            });
        } catch (JobRequestRefused e) {
            ConsoleUser.error(e.getMessage());
        }
        load();
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }
}
