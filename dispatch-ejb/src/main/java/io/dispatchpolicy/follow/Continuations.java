package io.dispatchpolicy.follow;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.StagingService;
import io.dispatchpolicy.staging.SubmissionPlacement;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Continuations (ADR 0051): checked at submission as their own submissions would be, written with the jobs
 * that carry them in one transaction, and staged through their own policies, on behalf of the submitter, when
 * the job they follow has ended for good in a way they follow.
 */
@Stateless
public class Continuations {

    private static final Logger LOG = Logger.getLogger(Continuations.class.getName());

    @Inject
    StagingService staging;

    @Inject
    SubmissionPlacement placement;

    @Inject
    PolicyRegistry policies;

    @Inject
    FollowerRepository followers;

    @Inject
    BatchPermissionCheck permission;

    /**
     * Stages the jobs as {@link StagingService#stageEach} does, each staged one carrying the options'
     * continuations; nothing of the call is written when a continuation would be refused.
     */
    public List<Submitted> submit(Policy policy, String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        List<Continuation> continuations = SubmitOption.continuationsOf(options);
        for (Continuation c : continuations) {
            check(jobXmlName, c);
        }
        String user = permission.authorize("start");
        List<Submitted> submitted = staging.stageEachAs(user, policy, jobXmlName, parameters, options);
        attach(user, submitted.stream().filter(s -> s.outcome() == Submitted.Outcome.STAGED).map(Submitted::submissionId).toList(),
                continuations);
        return submitted;
    }

    /**
     * A continuation is refused at submission for what would refuse its own submission: an unknown job, a job
     * no policy governs (it is staged through its job's policy), parameters JBeret cannot keep, a context its
     * policy cannot compute, a lane its policy lacks — checked with its predecessor's outcome parameters as
     * they will be, and for every continuation of the chain.
     */
    public void check(String predecessor, Continuation c) {
        check("Continuation " + describe(c.when()) + " of '" + predecessor + "' to '" + c.jobXmlName() + "'", predecessor, c);
    }

    /** As {@link #check(String, Continuation)}, for a group's callback (ADR 0052). */
    public void checkCallback(String group, Continuation c) {
        check("Callback on all " + (c.when() == Continuation.When.SUCCESS ? "succeeded" : "ended") + " of group '" + group + "' to '"
                + c.jobXmlName() + "'", "group " + group, c);
    }

    private void check(String what, String predecessor, Continuation c) {
        try {
            String job = placement.knownJob(c.jobXmlName());
            Policy policy = policies.forJob(job).orElseThrow(() -> new SubmissionRejectedException("job '" + job
                    + "' is governed by no policy: a continuation is staged through its job's policy"));
            Properties probe = withOutcome(c.parameters(), new JobEnd(io.dispatchpolicy.api.DispatchOperator.FIRST_SUBMISSION_ID, 1L,
                    predecessor, BatchStatus.COMPLETED, "COMPLETED"));
            SubmitOption[] options = c.options().toArray(new SubmitOption[0]);
            placement.place(policy, job, probe, SubmitOption.priorityOf(options).isPresent() ? SubmitOption.priorityOf(options).getAsInt()
                    : null, SubmitOption.laneOf(options).orElse(null));
        } catch (SubmissionRejectedException e) {
            throw new SubmissionRejectedException(what + " is refused: " + e.getMessage(), e);
        }
        for (Continuation n : c.next()) {
            check(c.jobXmlName(), n);
        }
    }

    private static String describe(Continuation.When when) {
        return switch (when) {
            case SUCCESS -> "on success";
            case FAILURE -> "on failure";
            case ANY_END -> "on any end";
        };
    }

    /** Every submission gets a follower per continuation, in one statement. */
    public void attach(String user, List<Long> submissions, List<Continuation> continuations) {
        if (submissions.isEmpty() || continuations.isEmpty()) {
            return;
        }
        int n = submissions.size() * continuations.size();
        List<Long> after = new ArrayList<>(n);
        List<String> onEnd = new ArrayList<>(n);
        List<String> jobs = new ArrayList<>(n);
        List<String> parameters = new ArrayList<>(n);
        List<String> specs = new ArrayList<>(n);
        List<String[]> encoded = continuations.stream().map(c -> new String[] {onEnd(c.when()),
                io.dispatchpolicy.domain.model.JobXmlName.require(c.jobXmlName()), ContinuationCodec.parameters(c.parameters()),
                ContinuationCodec.spec(c)}).toList();
        for (long submission : submissions) {
            for (String[] e : encoded) {
                after.add(submission);
                onEnd.add(e[0]);
                jobs.add(e[1]);
                parameters.add(e[2]);
                specs.add(e[3]);
            }
        }
        followers.insert(user, after, onEnd, jobs, parameters, specs);
    }

    static String onEnd(Continuation.When when) {
        return switch (when) {
            case SUCCESS -> "success";
            case FAILURE -> "failure";
            case ANY_END -> "any";
        };
    }

    private static boolean follows(String onEnd, BatchStatus status) {
        return switch (onEnd) {
            case "success" -> status == BatchStatus.COMPLETED;
            case "failure" -> status == BatchStatus.FAILED;
            default -> true;
        };
    }

    /**
     * Decides one waiting follower of kind 'job' or 'callback', in the caller's transaction: staged through its job's
     * policy with its own parameters as {@code outcome} completes them when {@code follows} (and its own continuations written with
     * it), skipped when not, refused (kept with the reason, the caller's end still recorded) when its staging is
     * refused now. {@code end} is what the detail records: the end it was decided on.
     */
    public void decide(FollowerRepository.Waiting w, boolean follows, java.util.function.UnaryOperator<Properties> outcome, String end,
                       String of) {
        if (!follows) {
            followers.decide(w.id(), "skipped", null, end);
            return;
        }
        try {
            Policy policy = policies.forJob(w.jobName()).orElseThrow(() -> new SubmissionRejectedException("job '" + w.jobName()
                    + "' is governed by no policy now"));
            Properties parameters = outcome.apply(ContinuationCodec.parameters(w.parametersJson()));
            Submitted s = staging.stageEachAs(w.submittedBy(), policy, w.jobName(), List.of(parameters), ContinuationCodec.options(w.specJson()))
                    .get(0);
            followers.decide(w.id(), "staged", s.submissionId(), end
                    + (s.outcome() == Submitted.Outcome.STAGED ? "" : ": " + s.outcome().name().toLowerCase(java.util.Locale.ROOT)));
            if (s.outcome() == Submitted.Outcome.STAGED) {
                attach(w.submittedBy(), List.of(s.submissionId()), ContinuationCodec.next(w.specJson()));
            }
        } catch (JobStartException e) { // SubmissionRejectedException included: nothing of it was written
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            followers.decide(w.id(), "refused", null, end + ": " + (why.length() > 2_000 ? why.substring(0, 2_000) : why));
            LOG.warning(() -> "Continuation '" + w.jobName() + "' of " + of + " was refused: " + why);
        }
    }

    /** A continuation of the ended submission: staged when the end is one it follows. */
    public void ended(FollowerRepository.Waiting w, JobEnd end) {
        decide(w, follows(w.onEnd(), end.status()), own -> withOutcome(own, end), end.status().name(),
                "submission " + end.submissionId());
    }

    /** Its own parameters, and its predecessor's outcome under the names {@link Continuation} gives. */
    static Properties withOutcome(Properties own, JobEnd end) {
        Properties p = new Properties();
        p.putAll(own);
        p.setProperty(Continuation.PREVIOUS_SUBMISSION, Long.toString(end.submissionId()));
        p.setProperty(Continuation.PREVIOUS_EXECUTION, Long.toString(end.executionId()));
        p.setProperty(Continuation.PREVIOUS_JOB, end.jobName());
        p.setProperty(Continuation.PREVIOUS_BATCH_STATUS, end.status().name());
        if (end.exitStatus() != null) {
            p.setProperty(Continuation.PREVIOUS_EXIT_STATUS, end.exitStatus());
        } else {
            p.remove(Continuation.PREVIOUS_EXIT_STATUS);
        }
        return p;
    }
}
