package io.dispatchpolicy.operator;

import io.dispatchpolicy.admission.AdmissionRepository;
import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.follow.Continuations;
import io.dispatchpolicy.follow.GroupRepository;
import io.dispatchpolicy.follow.Groups;
import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.api.JobGroup;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.StagingService;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** Bulk submission and submission status. */
@ApplicationScoped
public class DefaultDispatchOperator implements DispatchOperator {

    @Inject
    PolicyRegistry policies;

    @Inject
    StagingService staging;

    @Inject
    AdmissionRepository admissions;

    @Inject
    Continuations continuations;

    @Inject
    Groups groups;

    @Inject
    GroupRepository groupRepository;

    @Inject
    io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck permission;

    @Override
    public long[] submitAll(String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        return submitEach(jobXmlName, parameters, options).stream().mapToLong(Submitted::submissionId).toArray();
    }

    @Override
    public List<Submitted> submitEach(String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        String jobXml = JobXmlName.require(jobXmlName);
        Optional<Policy> policy = policies.forJob(jobXml);
        boolean continued = !SubmitOption.continuationsOf(options).isEmpty();
        if (policy.isPresent()) {
            // jobs that carry continuations are written with their followers in one transaction
            return continued ? continuations.submit(policy.get(), jobXml, parameters, options)
                    : staging.stageEach(policy.get(), jobXml, parameters, options);
        }
        if (continued) {
            throw new SubmissionRejectedException("Job '" + jobXml + "' is governed by no policy, so it cannot carry continuations: "
                    + "it would start at once, and its end would be recorded nowhere");
        }
        // An ungoverned job starts at once: there is no staging to order, delay, key or expire it in.
        if (SubmitOption.dueOf(options).isPresent()) {
            throw new SubmissionRejectedException("Job '" + jobXml + "' is governed by no policy, so it cannot be delayed: "
                    + "it would start at once");
        }
        if (SubmitOption.uniqueOf(options).isPresent() || SubmitOption.debounceOf(options).isPresent()
                || SubmitOption.expiryOf(options).isPresent()) {
            throw new SubmissionRejectedException("Job '" + jobXml + "' is governed by no policy, so it cannot be unique, "
                    + "debounced or given a deadline: it would start at once");
        }
        JobOperator jberet = BatchRuntime.getJobOperator();
        return parameters.stream().map(p -> new Submitted(jberet.start(jobXml, p), Submitted.Outcome.STARTED)).toList();
    }

    @Override
    public long submit(String jobXmlName, Properties parameters, SubmitOption... options) {
        return submitAll(jobXmlName, java.util.Collections.singletonList(parameters), options)[0];
    }

    @Override
    public SubmissionStatus status(long submissionId) {
        return admissions.status(submissionId);
    }

    @Override
    public long submitGroup(JobGroup group) {
        if (group == null) {
            throw new SubmissionRejectedException("submitGroup: the group must not be null");
        }
        return groups.submit(group);
    }

    @Override
    public GroupStatus groupStatus(long groupId) {
        return groupRepository.status(groupId).orElse(new GroupStatus(0, null, 0, 0, 0, 0, 0, 0, 0, 0, null, null, null, List.of()));
    }

    @Override
    public int cancelGroup(long groupId) {
        if (groupRepository.cancelled(groupId).isEmpty()) { // checked here: thrown by the session bean, it would reach the caller wrapped
            throw new IllegalArgumentException("No group " + groupId + " (never submitted, or removed after dispatch.admission-retention)");
        }
        // cancelling discards the group's staged jobs: the caller needs the permission that stops jobs
        return groups.cancel(groupId, permission.authorize("stop"));
    }
}
