package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.completion.JobStops;
import io.dispatchpolicy.console.monitoring.DeadJobs;
import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.follow.FollowerRepository;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.StagingRepository;
import io.dispatchpolicy.staging.StagingService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * A job's life read from the staged rows, the admission records and JBeret's tables, and the actions on one
 * job through the paths the engine already has (JBeret's stop, the policy's restart, the staged row's removal
 * under its partition's lock, the Dead view's discard) — unchecked and unaudited: the console's and the API's
 * {@link DefaultJobControl} checks and audits each call, a bulk action its request.
 */
@ApplicationScoped
public class JobActions {

    @Inject
    JobsRepository jobs;

    @Inject
    JobStops stops;

    @Inject
    PartitionRepository partitions;

    @Inject
    StagingRepository staging;

    @Inject
    StagingService stagingService;

    @Inject
    PolicyRegistry registry;

    @Inject
    DeadJobs dead;

    @Inject
    TickSignal signal;

    @Inject
    FollowerRepository followers;

    private static String describe(JobsRepository.Key k) {
        return k.kind() + " " + k.key() + " · " + k.absorbed() + (k.kind().equals("unique") ? " duplicate" : " later submission")
                + (k.absorbed() == 1 ? "" : "s") + " absorbed";
    }


    /** A job's whole life; empty when no staged row, admission record or dead job has this id (any more). */
    public Optional<JobLife> life(long submissionId) {
        List<JobRow> found = jobs.find(new JobQuery(JobQuery.By.SUBMISSION, Long.toString(submissionId), null, 0, 1));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        JobRow job = found.get(0);
        Optional<JobsRepository.Admission> admission = jobs.admission(submissionId);
        JobsRepository.Executions executions = job.executionId() == null
                ? new JobsRepository.Executions(List.of(), null) : jobs.executions(job.executionId());
        String submittedBy = admission.map(JobsRepository.Admission::submittedBy).orElse(null);
        Integer priority = admission.map(JobsRepository.Admission::priority).orElse(null);
        java.time.Instant dueAt = admission.map(JobsRepository.Admission::dueAt).orElse(null);
        int attempt = admission.map(JobsRepository.Admission::attempt).orElse(1);
        int cost = admission.map(JobsRepository.Admission::cost).orElse(1);
        String waiting = null;
        String error = null;
        String parameters = executions.parameters();
        java.time.Instant diedAt = null;
        String discarded = null;
        if ("STAGED".equals(job.state())) {
            Optional<JobsRepository.Staged> staged = jobs.staged(submissionId);
            if (staged.isPresent()) {
                JobsRepository.Staged s = staged.get();
                submittedBy = submittedBy != null ? submittedBy : s.submittedBy();
                priority = s.priority();
                dueAt = s.dueAt();
                attempt = s.attempt();
                waiting = s.waiting();
                error = s.lastError();
                parameters = s.parameters();
                cost = s.cost();
            }
        } else if ("EXPIRED".equals(job.state()) || "DISCARDED".equals(job.state())) {
            Optional<JobsRepository.Discarded> x = jobs.discarded(submissionId);
            if (x.isPresent()) {
                submittedBy = x.get().submittedBy();
                priority = x.get().priority();
                parameters = x.get().parameters();
                discarded = x.get().reason() + " " + x.get().at() + (x.get().detail() == null ? "" : " · " + x.get().detail());
            }
        } else if ("DEAD".equals(job.state())) {
            Optional<JobsRepository.Dead> d = jobs.dead(submissionId);
            if (d.isPresent()) {
                diedAt = d.get().diedAt();
                attempt = d.get().attempts();
                error = d.get().error();
                submittedBy = submittedBy != null ? submittedBy : d.get().submittedBy();
                priority = priority != null ? priority : d.get().priority();
            }
        }
        return Optional.of(new JobLife(job, submittedBy, priority, dueAt, attempt, waiting,
                admission.map(JobsRepository.Admission::admittedAt).orElse(null), admission.map(JobsRepository.Admission::node).orElse(null),
                diedAt, error, executions.executions(), parameters,
                admission.map(a -> a.timeouts().describe()).orElse("none"),
                admission.filter(JobsRepository.Admission::inFlight).map(JobsRepository.Admission::timedOut).orElse(null),
                admission.filter(JobsRepository.Admission::inFlight).map(JobsRepository.Admission::runsOn).orElse(null),
                admission.filter(a -> a.inFlight() && a.stopRequestedAt() != null).map(JobActions::stopRequest).orElse(null),
                cost, jobs.key(submissionId).map(JobActions::describe).orElse(null), discarded,
                followers.stagedAs(submissionId).stream().map(f -> new FollowLink(f.afterSubmission(), null, f.onEnd(), f.state(),
                        f.detail())).toList(),
                followers.after(submissionId).stream().map(f -> new FollowLink(f.submissionId(), f.jobName(), f.onEnd(), f.state(),
                        f.detail())).toList(), followers.groupOf(submissionId).orElse(null)));
    }

    /** Where an operator's stop of a job in flight stands. */
    private static String stopRequest(JobsRepository.Admission a) {
        return "asked at " + a.stopRequestedAt() + (a.stopDeliveredAt() == null ? ", waiting for node " + a.runsOn() + " to deliver it"
                : ", delivered by node " + a.runsOn() + " after " + java.time.Duration.between(a.stopRequestedAt(), a.stopDeliveredAt()).toMillis()
                + " ms");
    }


    /** Asks the job's running execution to stop, wherever it runs. @return what was done, for the operator */
    public String stop(long submissionId) {
        JobLife life = life(submissionId).orElseThrow(() -> unknown(submissionId));
        if (!life.stoppable()) {
            return "Job " + submissionId + " has no running execution to stop.";
        }
        long execution = life.latest().executionId();
        Optional<String> elsewhere = stops.stop(execution);
        return elsewhere.map(node -> "Asked execution " + execution + " of job " + submissionId + " to stop: it runs on node "
                        + node + ", which hands the request to its batch runtime within a second.")
                .orElse("Asked execution " + execution + " of job " + submissionId + " to stop.");
    }

    /**
     * Restarts the job's FAILED or STOPPED latest execution through its policy (a dead one: staged again).
     *
     * @param runAsIfUnknown who the restart runs as when the job's submitter is not known
     * @return what was done, for the operator
     */
    public String restart(long submissionId, String runAsIfUnknown) {
        JobLife life = life(submissionId).orElseThrow(() -> unknown(submissionId));
        if (!life.restartable()) {
            return "Job " + submissionId + " cannot be restarted: only a job whose latest execution FAILED or was STOPPED, "
                    + "with nothing staged for it, can.";
        }
        if ("DEAD".equals(life.job().state())) {
            int retried = dead.retryNow(List.of(submissionId));
            return retried == 1 ? "Dead job " + submissionId + " is staged again through its policy."
                    : "Job " + submissionId + " is no longer dead.";
        }
        Policy policy = Optional.ofNullable(life.job().policy()).flatMap(registry::named)
                .orElseThrow(() -> new JobRequestRefused("Job " + submissionId + "'s policy '" + life.job().policy()
                        + "' is not declared by this deployment: it cannot be restarted through it"));
        long execution = life.latest().executionId();
        Optional<JobsRepository.Admission> admission = jobs.admission(submissionId).filter(a -> a.partitionId() != null);
        if (admission.isEmpty()) {
            // its partition was swept since: a restart through the policy's interceptor, under a new submission
            long staged = stagingService.stageRestart(policy, execution, new Properties());
            return "Execution " + execution + " of job " + submissionId + " is staged for restart through policy '" + policy.name()
                    + "' as submission " + staged + ".";
        }
        // the same submission goes back to its partition and waits for its gates, as a dead job's retry does
        JobsRepository.Admission a = admission.get();
        // it runs again as its submitter, as its first execution did (ADR 0024); the operator is in the audit log
        String runAs = life.submittedBy() != null ? life.submittedBy() : runAsIfUnknown;
        staging.restage(new Restart(submissionId, a.partitionId(), life.job().jobName(), execution, runAs,
                life.priority() == null ? 0 : life.priority(), a.attempt(), null, false));
        signal.workArrivesOnCommit();
        return "Execution " + execution + " of job " + submissionId + " is staged for restart through policy '" + policy.name() + "'.";
    }

    /** Deletes a staged (waiting, scheduled, parked) or dead job. @return what was done */
    public String discard(long submissionId) {
        JobLife life = life(submissionId).orElseThrow(() -> unknown(submissionId));
        if ("DEAD".equals(life.job().state())) {
            return dead.discard(List.of(submissionId)) == 1 ? "Dead job " + submissionId + " discarded."
                    : "Job " + submissionId + " is no longer dead.";
        }
        Optional<Long> partition = jobs.stagedPartition(submissionId);
        if (partition.isEmpty() || !"STAGED".equals(life.job().state())) {
            return "Job " + submissionId + " is not staged or dead: only those can be discarded (stop a running one).";
        }
        partitions.lockWaiting(partition.get()); // as admission and drain: the row is taken out under its partition's lock
        return staging.remove(submissionId) ? "Staged job " + submissionId + " discarded."
                : "Job " + submissionId + " was admitted meanwhile.";
    }


    static JobRequestRefused unknown(long submissionId) {
        return JobRequestRefused.missing("No job " + submissionId + " (never submitted, or forgotten after its retention)");
    }
}
