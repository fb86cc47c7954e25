package io.dispatchpolicy.follow;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.JobGroup;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.DiscardedJobs;
import io.dispatchpolicy.staging.StagingService;
import io.dispatchpolicy.staging.SubmissionPlacement;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Groups (ADR 0052): members staged through their policies in one transaction, each a follower of kind 'group' that
 * counts its last end into the group's row; the transaction whose count reaches the total stages the callbacks — once,
 * by the group row's lock. A cancel discards the staged members and skips the callbacks; a member discarded any
 * other way (its deadline, a bulk discard) is counted by the sweep.
 */
@Stateless
public class Groups {

    private static final Logger LOG = Logger.getLogger(Groups.class.getName());

    @Inject
    StagingService staging;

    @Inject
    SubmissionPlacement placement;

    @Inject
    PolicyRegistry policies;

    @Inject
    GroupRepository groups;

    @Inject
    FollowerRepository followers;

    @Inject
    Continuations continuations;

    @Inject
    BatchPermissionCheck permission;

    @Inject
    DiscardedJobs discarded;

    @jakarta.annotation.Resource
    jakarta.ejb.SessionContext context;

    /**
     * Stages every member (all or nothing) and keeps the callbacks; a member the call did not stage (a duplicate, a
     * debounced one) is not a member. A group whose every job was a duplicate has ended at once.
     *
     * @return the group's id
     */
    public long submit(JobGroup group) {
        if (group.size() == 0) {
            throw new SubmissionRejectedException("JobGroup '" + group.name() + "' has no member: add jobs before submitting it");
        }
        if (group.size() > JobGroup.MAX_MEMBERS) {
            throw new SubmissionRejectedException("JobGroup '" + group.name() + "' has " + group.size() + " members, more than "
                    + JobGroup.MAX_MEMBERS + ": split it");
        }
        List<Policy> governing = new ArrayList<>();
        for (JobGroup.Members m : group.members()) {
            String job = placement.knownJob(m.jobXmlName());
            governing.add(policies.forJob(job).orElseThrow(() -> new SubmissionRejectedException("JobGroup '" + group.name()
                    + "': job '" + job + "' is governed by no policy: a group's members are staged through their policies")));
            SubmitOption[] options = m.options().toArray(new SubmitOption[0]);
            for (Continuation c : SubmitOption.continuationsOf(options)) {
                continuations.check(job, c);
            }
            // every member placed before anything is written: a refusal of the second members' entry must not find the
            // first staged. One entry needs no pass of its own: staging places all of its jobs before it writes any.
            for (Properties p : group.members().size() == 1 ? List.<Properties>of() : m.parameters()) {
                placement.place(governing.get(governing.size() - 1), job, p,
                        SubmitOption.priorityOf(options).isPresent() ? SubmitOption.priorityOf(options).getAsInt() : null,
                        SubmitOption.laneOf(options).orElse(null));
            }
        }
        for (Continuation c : group.callbacks()) {
            continuations.checkCallback(group.name(), c);
        }
        String user = permission.authorize("start");
        try {
            return write(group, governing, user);
        } catch (SubmissionRejectedException e) {
            // refused while members were being written (a backlog cap that rejects, a uniqueness function): nothing of the
            // group may stay, so the transaction is rolled back — the caller's too, when it has one
            context.setRollbackOnly();
            throw e;
        }
    }

    private long write(JobGroup group, List<Policy> governing, String user) {
        long id = groups.create(group.name(), user);
        int total = 0;
        for (int i = 0; i < group.members().size(); i++) {
            JobGroup.Members m = group.members().get(i);
            SubmitOption[] options = m.options().toArray(new SubmitOption[0]);
            String job = placement.knownJob(m.jobXmlName());
            List<Long> staged = staging.stageEachAs(user, governing.get(i), job, m.parameters(), options).stream()
                    .filter(s -> s.outcome() == Submitted.Outcome.STAGED).map(Submitted::submissionId).toList();
            continuations.attach(user, staged, SubmitOption.continuationsOf(options));
            followers.insertMembers(user, id, staged, Collections.nCopies(staged.size(), job));
            total += staged.size();
        }
        groups.total(id, total);
        List<String> onEnd = new ArrayList<>();
        List<String> jobs = new ArrayList<>();
        List<String> parameters = new ArrayList<>();
        List<String> specs = new ArrayList<>();
        for (Continuation c : group.callbacks()) {
            onEnd.add(Continuations.onEnd(c.when()));
            jobs.add(placement.knownJob(c.jobXmlName()));
            parameters.add(ContinuationCodec.parameters(c.parameters()));
            specs.add(ContinuationCodec.spec(c));
        }
        followers.insertCallbacks(user, id, onEnd, jobs, parameters, specs);
        if (total == 0) {
            callbacks(id, new GroupRepository.Counted(true, false, group.name(), 0, 0, 0, 0, 0));
        }
        return id;
    }

    /** A member has ended for good: counted into its group, whose callbacks are staged if it was the last. */
    public void memberEnded(FollowerRepository.Waiting member, JobEnd end) {
        followers.decide(member.id(), "counted", null, end.status().name());
        BatchStatus s = end.status();
        GroupRepository.Counted counted = groups.count(member.groupId(), s == BatchStatus.COMPLETED ? 1 : 0, s == BatchStatus.FAILED ? 1 : 0,
                s == BatchStatus.COMPLETED || s == BatchStatus.FAILED ? 0 : 1, 0);
        if (counted.endedNow() && !counted.cancelled()) {
            callbacks(member.groupId(), counted);
        }
    }

    /** The group's callbacks decided: all-ended staged, all-succeeded staged only when every member completed. */
    private void callbacks(long groupId, GroupRepository.Counted c) {
        boolean allSucceeded = c.completed() == c.total();
        Properties outcome = new Properties();
        outcome.setProperty(JobGroup.GROUP_ID, Long.toString(groupId));
        outcome.setProperty(JobGroup.GROUP_NAME, c.name());
        outcome.setProperty(JobGroup.GROUP_COMPLETED, Integer.toString(c.completed()));
        outcome.setProperty(JobGroup.GROUP_FAILED, Integer.toString(c.failed()));
        outcome.setProperty(JobGroup.GROUP_STOPPED, Integer.toString(c.stopped()));
        outcome.setProperty(JobGroup.GROUP_DISCARDED, Integer.toString(c.discarded()));
        String end = c.completed() + " of " + c.total() + " completed, " + c.failed() + " failed, " + c.stopped() + " stopped, "
                + c.discarded() + " discarded";
        for (FollowerRepository.Waiting callback : followers.lockCallbacks(groupId)) {
            continuations.decide(callback, !"success".equals(callback.onEnd()) || allSucceeded, own -> {
                own.putAll(outcome);
                return own;
            }, end, "group " + groupId);
        }
        LOG.info(() -> "Group " + groupId + " ('" + c.name() + "') has ended: " + end);
    }

    /**
     * Cancels the group: no callback will run, and its staged members are discarded (kept as DISCARDED, reason
     * cancelled); running ones end as they will and are counted.
     *
     * @return how many staged members were discarded; 0 when it was cancelled already
     * @throws IllegalArgumentException when no group has this id
     */
    public int cancel(long groupId, String by) {
        Optional<Boolean> cancelled = groups.cancelled(groupId);
        if (cancelled.isEmpty()) {
            throw new IllegalArgumentException("No group " + groupId + " (never submitted, or removed after dispatch.admission-retention)");
        }
        if (cancelled.get()) {
            return 0;
        }
        // The staged members first: their partitions are locked before the group's row, the order a member's end takes
        // them in (its end may lock partitions — a retry staged, a woken backoff — then counts into the group row).
        // Until the row says cancelled, the group cannot end: the members taken out here are counted only below.
        List<Long> staged = groups.stagedMembers(groupId);
        int n = staged.isEmpty() ? 0 : discarded.discard(staged, "cancelled", "group " + groupId + " cancelled"
                + (by == null ? "" : " by " + by)).values().stream().mapToInt(Integer::intValue).sum();
        if (groups.cancel(groupId, by)) { // else another call cancelled it meanwhile and skipped its callbacks
            for (FollowerRepository.Waiting callback : followers.lockCallbacks(groupId)) {
                followers.decide(callback.id(), "skipped", null, "group cancelled");
            }
        }
        settleDiscarded(groupId);
        LOG.info(() -> "Group " + groupId + " cancelled" + (by == null ? "" : " by " + by) + ": " + n + " staged member(s) discarded");
        return n;
    }

    /**
     * Counts members taken out before they ran (a cancel, a deadline, a bulk discard) as discarded, of one group or of
     * every group (null), firing the callbacks of a group that thereby ended. @return members counted
     */
    public int settleDiscarded(Long groupId) {
        int n = 0;
        for (long[] g : groups.discardedMembers(groupId)) {
            n += (int) g[1];
            GroupRepository.Counted counted = groups.count(g[0], 0, 0, 0, (int) g[1]);
            if (counted.endedNow() && !counted.cancelled()) {
                callbacks(g[0], counted);
            }
        }
        return n;
    }
}
