package io.dispatchpolicy.console.jobs;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/**
 * A job's whole life, as the job's page shows it.
 *
 * @param job          the job as listed
 * @param submittedBy  who submitted it (JBeret's user), when known
 * @param priority     its priority at staging
 * @param dueAt        when it was (or is) due, for a delayed job; null otherwise
 * @param attempt      its current attempt (1 = the submitted run)
 * @param waiting      while staged: waiting, scheduled or parked (with {@code lastError}); else null
 * @param admittedAt   its latest admission; null if never admitted
 * @param admittedBy   the node that admitted it then
 * @param diedAt       when its retries were spent; null if not dead
 * @param lastError    the error it was parked or died with
 * @param executions   every JBeret execution, oldest first
 * @param parameters   its job parameters as staged or as JBeret last ran it
 * @param timeouts     its latest execution's timeouts ("run 3 s · no checkpoint 2 s", ADR 0030): those in force while
 *                     it runs, else its submission's own; "none"
 * @param timedOut     while its thread has not let go of a timed-out execution: why it was stopped; else null
 * @param runsOn       while in flight: the node that runs it; else null
 * @param stopRequest  while in flight: where an operator's stop stands ("asked …, delivered by node b …"); else null
 * @param cost         the batch threads it takes at its widest: the slots and tokens its admission takes (ADR 0035)
 * @param key          its uniqueness or debounce key and what it absorbed ("unique order-42 · 999 duplicates absorbed",
 *                     ADR 0036); null without one
 * @param discarded    for an EXPIRED or DISCARDED job: why and when a submission control took it out; else null
 * @param continues    the jobs it was staged to continue (ADR 0051): their submissions, on which end
 * @param continuedBy  its continuations: each job, on which end, and what became of it
 * @param groupId      the group it is a member of (ADR 0052); null for none
 */
public record JobLife(JobRow job, String submittedBy, Integer priority, Instant dueAt, int attempt, String waiting,
                      Instant admittedAt, String admittedBy, Instant diedAt, String lastError,
                      List<ExecutionRecord> executions, String parameters, String timeouts, String timedOut,
                      String runsOn, String stopRequest, int cost, String key, String discarded,
                      List<FollowLink> continues, List<FollowLink> continuedBy, Long groupId) implements Serializable {

    /** Whether a running execution may be stopped. */
    public boolean stoppable() {
        return latest() != null && ("STARTING".equals(latest().batchStatus()) || "STARTED".equals(latest().batchStatus()));
    }

    /** Whether it may be restarted through its policy: its latest execution FAILED or STOPPED, nothing staged for it. */
    public boolean restartable() {
        return !"STAGED".equals(job.state()) && latest() != null
                && ("FAILED".equals(latest().batchStatus()) || "STOPPED".equals(latest().batchStatus()));
    }

    /** Whether it may be discarded: staged (waiting, scheduled, parked) or dead. */
    public boolean discardable() {
        return "STAGED".equals(job.state()) || "DEAD".equals(job.state());
    }

    public ExecutionRecord latest() {
        return executions.isEmpty() ? null : executions.get(executions.size() - 1);
    }
}
