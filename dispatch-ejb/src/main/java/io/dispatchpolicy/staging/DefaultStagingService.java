package io.dispatchpolicy.staging;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.policy.SubmissionControls;
import io.dispatchpolicy.spi.BacklogCap;
import io.dispatchpolicy.spi.Debounce;
import io.dispatchpolicy.spi.KeyFunction;
import io.dispatchpolicy.spi.Uniqueness;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import io.dispatchpolicy.infrastructure.jberet.JobInstances;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.demotion.NoisyTenants;
import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import org.jberet.job.model.Job;
import org.jberet.runtime.JobExecutionImpl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * The submission boundary. Everything that could make a job fail later for a reason the caller
 * controls is checked here, before anything is written: the job XML exists, the parameters fit
 * JBeret's repository, the policy's context function succeeds and yields a partition key, a restart
 * is of a restartable execution.
 */
@Stateless
public class DefaultStagingService implements StagingService {

    @Inject
    JobRuntime runtime;

    @Inject
    BatchPermissionCheck permission;

    @Inject
    StagingRepository staging;

    @Inject
    DeadJobRepository deadJobs;

    @Inject
    JobInstances instances;

    @Inject
    TickSignal signal;

    @Inject
    HeldPolicies policies;

    @Inject
    PolicyRegistry registry;

    @Inject
    NoisyTenants noisyTenants;

    @Inject
    SubmissionPlacement placement;

    @Inject
    EngineMetrics metrics;

    @Inject
    io.dispatchpolicy.policy.PolicySettings policySettings;

    @Inject
    SubmissionKeys submissionKeys;


    @Override
    public long[] stage(Policy policy, String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        return stageEach(policy, jobXmlName, parameters, options).stream().mapToLong(Submitted::submissionId).toArray();
    }

    @Override
    public List<Submitted> stageEach(Policy policy, String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        return stageEach(policy, jobXmlName, parameters, false, null, options);
    }

    @Override
    public List<Submitted> stageEachAs(String user, Policy policy, String jobXmlName, List<Properties> parameters,
                                       SubmitOption... options) {
        return stageEach(policy, jobXmlName, parameters, true, user, options);
    }

    private List<Submitted> stageEach(Policy policy, String jobXmlName, List<Properties> parameters, boolean authorized, String as,
                                      SubmitOption... options) {
        String jobName = placement.knownJob(jobXmlName);
        if (parameters == null || parameters.isEmpty()) {
            return List.of();
        }
        OptionalInt priority = SubmitOption.priorityOf(options);
        Due due = due(SubmitOption.dueOf(options));
        Optional<String> named = SubmitOption.laneOf(options);
        OptionalInt cost = SubmitOption.costOf(options);
        Duration offset = SubmitOption.priorityOffsetOf(options).orElse(null);
        // every setting of the policy is read only for a policy with lanes or demotion rules, and then once
        Optional<EffectivePolicy> effective = named.isPresent() || registry.hasLanes(policy) || registry.mayDemote(policy)
                ? policies.effectiveIfDeclared(policy.name()) : Optional.empty();
        String lane = placement.lane(policy, effective, named.orElse(null));
        SubmissionControls controls = policySettings.controls(policy);
        StagingRepository.Deadline deadline = deadline(policy, controls, SubmitOption.expiryOf(options), due);
        List<Submission> submissions = new ArrayList<>(parameters.size());
        for (Properties p : parameters) {
            JobParameters validated = JobParameters.of(p);
            submissions.add(placement.assign(policy, jobName, validated, validated, priority, due.delayMillis(), due.atMillis(), lane,
                    cost, offset));
        }
        placement.checkShards(policy, submissions);
        Keys keys = keys(policy, jobName, controls, parameters, options);
        String user = authorized ? as : permission.authorize("start");
        JobTimeouts timeouts = JobTimeouts.of(SubmitOption.timeoutOf(options), SubmitOption.progressTimeoutOf(options));
        Submitted[] result = new Submitted[submissions.size()];
        List<Integer> toStage = new ArrayList<>(submissions.size());
        List<Long> ids = new ArrayList<>(submissions.size());
        uniqueClaims(policy, keys, result, toStage, ids);
        Optional<BacklogCap> cap = controls.cap();
        Optional<Integer> rejectOver = cap.filter(c -> c.overflow() == BacklogCap.Overflow.REJECT).map(BacklogCap::max);
        List<Submission> debouncedStaged = debounce(policy, jobName, user, keys, submissions, result, toStage, ids, timeouts, deadline,
                rejectOver);
        List<Submission> placed = noisyTenants.place(policy, effective, toStage.stream().map(submissions::get).toList(),
                named.isPresent());
        if (rejectOver.isPresent()) {
            refuseOverCap(policy, rejectOver.get(), placed); // in the lanes demotion placed them in: the rows they go to
        }
        long[] staged = placed.isEmpty() ? new long[0] : staging.stage(policy.name(), jobName, user, placed, null,
                policy.priorityAging().orElse(null), timeouts, ids, deadline);
        for (int i = 0; i < staged.length; i++) {
            result[toStage.get(i)] = new Submitted(staged[i], Submitted.Outcome.STAGED);
        }
        if (cap.isPresent() && cap.get().overflow() != BacklogCap.Overflow.REJECT) {
            List<Submission> all = new ArrayList<>(placed);
            all.addAll(debouncedStaged);
            int discarded = staging.trimToCap(policy.name(), all, cap.get().max(), cap.get().overflow() == BacklogCap.Overflow.KEEP_NEWEST);
            metrics.discardedOnCommit(policy.name(), cap.get().overflow().setting(), discarded);
        }
        signal.workArrivesOnCommit(); // the staged rows are visible to the tick only then
        metrics.stagedOnCommit(policy.name(), staged.length + debouncedStaged.size());
        for (Submitted.Outcome absorbed : List.of(Submitted.Outcome.DUPLICATE, Submitted.Outcome.DEBOUNCED)) {
            metrics.absorbedOnCommit(policy.name(), absorbed.name().toLowerCase(java.util.Locale.ROOT),
                    (int) java.util.Arrays.stream(result).filter(r -> r.outcome() == absorbed).count());
        }
        return List.of(result);
    }

    /** Each job's uniqueness and debounce key, from the call's options or the policy's functions; null for none. */
    private record Keys(String[] unique, Uniqueness uniqueness, String[] debounce, Debounce debouncing) {
    }

    private Keys keys(Policy policy, String jobName, SubmissionControls controls, List<Properties> parameters, SubmitOption... options) {
        Optional<SubmitOption.Unique> unique = SubmitOption.uniqueOf(options);
        Optional<SubmitOption.Debounced> debounced = SubmitOption.debounceOf(options);
        KeyFunction uniqueBy = unique.isPresent() ? null : controls.uniqueBy();
        KeyFunction debounceBy = debounced.isPresent() ? null : controls.debounceBy();
        boolean anyUnique = unique.isPresent() || uniqueBy != null;
        boolean anyDebounce = debounced.isPresent() || debounceBy != null;
        if (!anyUnique && !anyDebounce) {
            return new Keys(null, null, null, null);
        }
        if (unique.isPresent() && debounced.isPresent()) {
            throw new SubmissionRejectedException("A job is either unique or debounced: SubmitOption.unique and SubmitOption.debounce "
                    + "were both given");
        }
        String[] u = anyUnique ? new String[parameters.size()] : null;
        String[] d = anyDebounce ? new String[parameters.size()] : null;
        for (int i = 0; i < parameters.size(); i++) {
            Properties p = parameters.get(i);
            if (u != null) {
                u[i] = unique.isPresent() ? unique.get().key() : key(policy, jobName, "its uniqueness key", uniqueBy, p);
            }
            if (d != null) {
                d[i] = debounced.isPresent() ? debounced.get().key() : key(policy, jobName, "its debounce key", debounceBy, p);
            }
            if (u != null && d != null && u[i] != null && d[i] != null) {
                // the caller's option goes first: a job keyed by both is the caller's kind only
                if (unique.isPresent()) {
                    d[i] = null;
                } else if (debounced.isPresent()) {
                    u[i] = null;
                } else {
                    throw new SubmissionRejectedException("Policy '" + policy.name() + "': job '" + jobName
                            + "' has both a uniqueness key and a debounce key; a job is either unique or debounced");
                }
            }
        }
        return new Keys(u, unique.map(SubmitOption.Unique::uniqueness).orElse(controls.uniqueness()), d,
                debounced.map(SubmitOption.Debounced::debounce).orElse(controls.debounce()));
    }

    private static String key(Policy policy, String jobName, String what, KeyFunction by, Properties parameters) {
        String key;
        try {
            key = by.keyOf(parameters);
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': " + what + " failed for job '" + jobName + "': " + e, e);
        }
        if (key != null && key.length() > SubmitOption.MAX_KEY_LENGTH) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': " + what + " of job '" + jobName + "' has "
                    + key.length() + " characters, more than " + SubmitOption.MAX_KEY_LENGTH);
        }
        return key == null || key.isBlank() ? null : key;
    }

    /**
     * The jobs with a uniqueness key claim it (SubmissionKeys): the first job of a key that wins it is staged
     * under the id it drew; every other job of the key is a duplicate of whichever submission holds it.
     */
    private void uniqueClaims(Policy policy, Keys keys, Submitted[] result, List<Integer> toStage, List<Long> ids) {
        java.util.Map<String, Integer> firstOf = new java.util.LinkedHashMap<>();
        java.util.Map<String, Integer> extra = new java.util.HashMap<>();
        for (int i = 0; i < result.length; i++) {
            String k = keys.unique() == null ? null : keys.unique()[i];
            if (k != null && firstOf.putIfAbsent(k, i) != null) {
                extra.merge(k, 1, Integer::sum);
            }
        }
        java.util.Map<String, SubmissionKeys.Claim> claims = firstOf.isEmpty() ? java.util.Map.of()
                : submissionKeys.claimUnique(policy.name(), new ArrayList<>(firstOf.keySet()), extra,
                new SubmissionKeys.Terms(keys.uniqueness().coverBits(),
                        keys.uniqueness().window() == null ? null : keys.uniqueness().window().toMillis(), null));
        for (int i = 0; i < result.length; i++) {
            String k = keys.unique() == null ? null : keys.unique()[i];
            if (keys.debounce() != null && keys.debounce()[i] != null) {
                continue; // debounced, below
            }
            if (k == null) {
                toStage.add(i);
                ids.add(null);
            } else if (firstOf.get(k) == i && claims.get(k).won()) {
                toStage.add(i);
                ids.add(claims.get(k).submissionId());
            } else {
                result[i] = new Submitted(claims.get(k).submissionId(), Submitted.Outcome.DUPLICATE);
            }
        }
    }

    /**
     * The jobs with a debounce key, one at a time in the call's order (a later one of the call sees an earlier one
     * staged): each pushes back the staged job of its key, or is staged due a period from now under the key.
     *
     * @return the jobs staged here
     */
    private List<Submission> debounce(Policy policy, String jobName, String user, Keys keys, List<Submission> submissions,
                                      Submitted[] result, List<Integer> toStage, List<Long> ids, JobTimeouts timeouts,
                                      StagingRepository.Deadline deadline, Optional<Integer> rejectOver) {
        if (keys.debounce() == null) {
            return List.of();
        }
        List<Submission> staged = new ArrayList<>();
        Debounce d = keys.debouncing();
        for (int i = 0; i < submissions.size(); i++) {
            String k = keys.debounce()[i];
            if (k == null) {
                continue;
            }
            Submission s = submissions.get(i);
            SubmissionKeys.Claim claim = submissionKeys.claimDebounce(policy.name(), k,
                    io.dispatchpolicy.infrastructure.persistence.JsonCodec.write(s.parameters().asMap()), d.period().toMillis(),
                    s.partitionKey(), s.lane(), new SubmissionKeys.Terms(0, null, d.maxWait().toMillis()), deadline.atMillis(),
                    deadline.afterMillis());
            if (!claim.won()) {
                result[i] = new Submitted(claim.submissionId(), Submitted.Outcome.DEBOUNCED);
                continue;
            }
            Submission due = new Submission(s.jobName(), s.parameters(), s.partitionKey(), s.lane(), s.contextJson(), s.priority(),
                    d.period().toMillis(), null, s.tenant(), s.shard(), s.cost(), s.offsetMillis());
            if (rejectOver.isPresent()) {
                refuseOverCap(policy, rejectOver.get(), List.of(due));
            }
            long id = staging.stage(policy.name(), jobName, user, List.of(due), null, policy.priorityAging().orElse(null), timeouts,
                    java.util.Collections.singletonList(claim.submissionId()), deadline)[0];
            result[i] = new Submitted(id, Submitted.Outcome.STAGED);
            staged.add(due);
        }
        return staged;
    }

    /**
     * A backlog cap with {@code reject}: the call's partition rows locked and counted before anything is staged,
     * and the whole call refused when a partition would pass its cap (ADR 0036).
     */
    private void refuseOverCap(Policy policy, int cap, List<Submission> submissions) {
        if (submissions.isEmpty()) {
            return;
        }
        java.util.Map<List<String>, Integer> adding = StagingRepository.perPartition(submissions);
        for (StagingRepository.Backlog b : staging.lockBacklogs(policy.name(), submissions)) {
            int n = adding.getOrDefault(List.of(b.partitionKey(), b.lane()), 0);
            if (n > 0 && b.staged() + n > cap) {
                throw new SubmissionRejectedException("Policy '" + policy.name() + "': partition '" + b.partitionKey() + "'"
                        + (b.lane().isEmpty() ? "" : " (lane '" + b.lane() + "')") + " holds " + b.staged() + " staged jobs and its backlog "
                        + "cap is " + cap + ": " + n + " more " + (n == 1 ? "is" : "are") + " refused (nothing of the call was staged)");
            }
        }
    }

    /**
     * The call's deadline: its own ({@code SubmitOption.deadline} or {@code expireAfter}), else its policy's
     * {@code expireAfter}. A deadline before the job is even due, or past the horizon, is a mistake.
     */
    private static StagingRepository.Deadline deadline(Policy policy, SubmissionControls controls, Optional<SubmitOption.Expiry> own,
                                                       Due due) {
        if (own.isPresent() && own.get().deadline() != null) {
            Instant deadline = own.get().deadline();
            if (Duration.between(Instant.now(), deadline).compareTo(SubmitOption.HORIZON) > 0) {
                throw new SubmissionRejectedException("SubmitOption.deadline: at most " + SubmitOption.HORIZON.toDays()
                        + " days ahead; " + deadline + " is further");
            }
            Instant dueAt = due.atMillis() != null ? Instant.ofEpochMilli(due.atMillis())
                    : due.delayMillis() != null ? Instant.now().plusMillis(due.delayMillis()) : null;
            if (dueAt != null && !deadline.isAfter(dueAt)) {
                throw new SubmissionRejectedException("SubmitOption.deadline: " + deadline + " is not after the job is due ("
                        + dueAt + "): it could never run");
            }
            return new StagingRepository.Deadline(deadline.toEpochMilli(), null);
        }
        Duration after = own.map(SubmitOption.Expiry::after).orElse(controls.expireAfter());
        return after == null ? StagingRepository.Deadline.NONE : new StagingRepository.Deadline(null, after.toMillis());
    }

    @Override
    public long stageRestart(Policy policy, long executionId, Properties restartParameters) {
        JobExecutionImpl original = (JobExecutionImpl) runtime.environment().getJobRepository().getJobExecution(executionId);
        if (original == null) {
            throw new NoSuchJobExecutionException("No job execution " + executionId);
        }
        BatchStatus status = original.getBatchStatus();
        if (status == BatchStatus.COMPLETED) {
            throw new JobExecutionAlreadyCompleteException("Execution " + executionId + " already completed");
        }
        if (status != BatchStatus.FAILED && status != BatchStatus.STOPPED) {
            throw new JobRestartException("Execution " + executionId + " is " + status + "; only FAILED or STOPPED restart");
        }
        long latest = instances.latestExecution(original.getJobInstance().getInstanceId());
        if (latest != executionId) {
            throw new JobRestartException("Execution " + executionId + " is not the latest of its job instance (" + latest + " is)");
        }
        staging.stagedRestartOf(executionId).ifPresent(staged -> {
            throw new JobRestartException("Execution " + executionId + " is already being restarted: submission "
                    + staged + " is staged for it (an automatic retry, or an earlier restart)");
        });
        JobParameters restart = JobParameters.of(restartParameters);
        // The restart runs with the original parameters overlaid by the restart's: that is what must fit,
        // and what the policy partitions on.
        Properties merged = new Properties();
        Properties previous = original.getJobParameters() == null ? new Properties() : original.getJobParameters();
        previous.stringPropertyNames().stream()
                .filter(k -> !k.equals(JobParameters.SUBMISSION_ID) && !k.equals(Job.JOB_XML_NAME))
                .forEach(k -> merged.setProperty(k, previous.getProperty(k)));
        merged.putAll(restart.asMap());
        String jobName = original.getJobName();
        Submission submission = placement.assign(policy, jobName, JobParameters.of(merged), restart, OptionalInt.empty(),
                null, null, placement.lane(policy, policies.effectiveIfDeclared(policy.name()), null), OptionalInt.empty(), null);
        String caller = permission.authorize("restart");
        // a restart runs as the job's submitter, as its first execution did (ADR 0024); the caller only if unknown
        String user = original.getUser() != null ? original.getUser() : caller;
        long id = staging.stage(policy.name(), jobName, user, List.of(submission), List.of(executionId),
                policy.priorityAging().orElse(null), JobTimeouts.NONE)[0]; // a restart is not counted for its tenant
        deadJobs.revived(executionId); // a dead job restarted by hand is dead no more
        signal.workArrivesOnCommit(); // the staged rows are visible to the tick only then
        metrics.stagedOnCommit(policy.name(), 1);
        return id;
    }





    /**
     * A delay or time as the staging statement takes it. Past times and negative delays mean due at once (the
     * database decides: it promotes them at the next tick); beyond the horizon is a mistake. The horizon
     * is checked on this server's clock, which is close enough for ten years.
     */
    private static Due due(Optional<SubmitOption.Due> due) {
        if (due.isEmpty()) {
            return Due.NOW;
        }
        Duration delay = due.get().delay();
        Instant at = due.get().at();
        Duration ahead = delay != null ? delay : Duration.between(Instant.now(), at);
        if (ahead.compareTo(SubmitOption.HORIZON) > 0) {
            throw new SubmissionRejectedException("A job can be submitted at most " + SubmitOption.HORIZON.toDays()
                    + " days ahead; " + (delay != null ? "delay " + delay : "at " + at) + " is further");
        }
        return delay != null ? new Due(Math.max(0, delay.toMillis()), null) : new Due(null, at.toEpochMilli());
    }



    /** A staged job's delay (ms after staging) or time (epoch ms); both null when it is due at once. */
    private record Due(Long delayMillis, Long atMillis) {
        static final Due NOW = new Due(null, null);
    }
}
