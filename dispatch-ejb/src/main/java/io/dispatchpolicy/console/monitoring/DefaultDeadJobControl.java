package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;

@Stateless
public class DefaultDeadJobControl implements DeadJobControl {

    @Inject
    DeadJobBrowser dead;

    @Inject
    DeadJobs jobs;

    @Inject
    Audited audited;

    @Override
    public List<DeadJobView> page(DeadJobQuery query) {
        return dead.page(query);
    }

    @Override
    public long count(DeadJobQuery query) {
        return dead.count(query);
    }

    @Override
    public int retryNow(List<Long> submissionIds, Actor actor) {
        return eachOf(submissionIds, actor, OperatorAction.DEAD_RETRY, jobs::retryNow, "staged again through its policy");
    }

    @Override
    public int discard(List<Long> submissionIds, Actor actor) {
        return eachOf(submissionIds, actor, OperatorAction.DEAD_DISCARD, jobs::discard, "discarded");
    }

    /** One audited action per job, so each job's audit shows what was done to it. */
    private int eachOf(List<Long> submissionIds, Actor actor, OperatorAction action,
                       java.util.function.ToIntFunction<List<Long>> work, String done) {
        int n = 0;
        for (long id : new java.util.LinkedHashSet<>(submissionIds)) {
            n += audited.act(actor, action, String.valueOf(id), () -> "dead", () -> work.applyAsInt(List.of(id)),
                    k -> k == 1 ? done : "not dead any more: nothing done");
        }
        return n;
    }
}
