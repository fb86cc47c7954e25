package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobLife;
import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.function.LongFunction;

/** One job's whole life ({@code job.xhtml?id=…}); stop, restart through the policy and discard for admins. */
@Named
@ViewScoped
public class JobView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient JobControl jobs;

    @Inject
    ConsoleUser user;

    private long id;
    private transient JobLife life;
    private transient boolean loaded;

    public void load() {
        life = jobs.life(id).orElse(null);
        loaded = true;
    }

    public JobLife getLife() {
        if (!loaded) {
            load();
        }
        return life;
    }

    public void stop() {
        act(jobs::stop);
    }

    public void restart() {
        act(jobs::restart);
    }

    public void discard() {
        act(jobs::discard);
    }

    private void act(java.util.function.BiFunction<Long, io.dispatchpolicy.console.audit.Actor, String> action) {
        try {
            if (!user.act(() -> {
                ConsoleUser.info(action.apply(id, user.getActor()));
                return true;
            })) {
                return;
            }
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
