package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.console.audit.Actor;

import java.util.List;

/** The Dead view's engine side: dead jobs searched and paged, retried now or discarded, one or many at once; each job's retry or discard is checked against the actor's roles and audited. */
public interface DeadJobControl {

    List<DeadJobView> page(DeadJobQuery query);

    long count(DeadJobQuery query);

    /**
     * Stages a restart of each dead job's last execution, due at once, one attempt more, through its
     * policy (or past the gates when its retry strategy is bypass). It is no longer dead; if that attempt
     * fails too, it is dead again (its retries stay spent). @return how many were retried
     */
    int retryNow(List<Long> submissionIds, Actor actor);

    /** Forgets the dead jobs (their failed executions stay in JBeret's history). @return how many */
    int discard(List<Long> submissionIds, Actor actor);
}
