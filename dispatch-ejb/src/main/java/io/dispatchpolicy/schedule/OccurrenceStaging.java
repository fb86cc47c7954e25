package io.dispatchpolicy.schedule;

import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.PriorityAging;
import io.dispatchpolicy.staging.SubmissionPlacement;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * Stages a schedule's occurrences as submissions of its job would be staged: under the policy that
 * governs the job (its context, partition key, priority function and lane, with the schedule's priority
 * and lane over them), or under the pass-through policy {@value Policy#SCHEDULES} when none does.
 * Every occurrence carries the job parameter {@value Policy#SCHEDULE_PARAMETER} naming its schedule.
 */
@ApplicationScoped
public class OccurrenceStaging {

    public static final String GRID = "grid";
    public static final String EXTRA = "extra";

    @Inject
    EngineMetrics metrics;

    @Inject
    PolicyRegistry policies;

    @Inject
    SubmissionPlacement submissions;

    @Inject
    io.dispatchpolicy.policy.PolicySettings policySettings;

    @Inject
    OccurrenceRepository occurrences;

    @Inject
    ScheduleGrids grids;

    /**
     * Where and how the schedule's occurrences are staged now.
     *
     * @throws io.dispatchpolicy.api.SubmissionRejectedException when a submission of its job would be refused
     */
    public OccurrenceRepository.Placement placement(ScheduleDefinition d) {
        Policy policy = policies.forJob(d.jobName()).or(() -> policies.named(Policy.SCHEDULES)).orElseThrow();
        Properties parameters = new Properties();
        parameters.putAll(d.parameters());
        parameters.setProperty(Policy.SCHEDULE_PARAMETER, d.name());
        Submission s = submissions.place(policy, d.jobName(), parameters, d.priority(), d.lane());
        PriorityAging aging = policy.priorityAging().orElse(null);
        // the schedule's deadline, else its policy's expireAfter (live), both counted from the run time
        java.time.Duration deadline = d.deadline() != null ? d.deadline() : policySettings.controls(policy).expireAfter();
        return new OccurrenceRepository.Placement(policy.name(), s.partitionKey(), s.lane(), s.contextJson(), s.shard(), s.jobName(),
                JsonCodec.write(s.parameters().asMap()), d.runAs(), s.priority(),
                aging == null ? null : aging.every().toMillis(), aging == null ? null : aging.step(),
                aging == null ? null : aging.cap(), deadline == null ? null : deadline.toMillis());
    }

    /**
     * The definition's placement, or the reason a submission of its job would be refused, as a
     * declaration error naming the schedule (for deployment and the console's form).
     */
    public OccurrenceRepository.Placement checked(ScheduleDefinition d) {
        grids.check(d, java.time.Instant.now());
        try {
            return placement(d);
        } catch (io.dispatchpolicy.api.SubmissionRejectedException e) {
            throw new io.dispatchpolicy.spi.ScheduleDeclarationException("Schedule '" + d.name() + "': job '" + d.jobName()
                    + "' with these parameters, priority and lane would be refused: " + e.getMessage());
        }
    }

    /**
     * Stages one occurrence. A grid occurrence is staged only when the schedule has no live future
     * (the database decides). @return its submission id, or empty when the future existed
     */
    public Optional<Long> stage(StoredSchedule s, String kind, Instant runAt, int overdueSeq, OccurrenceRepository.Placement p) {
        Optional<Long> staged = occurrences.stage(s.id(), s.version(), kind, runAt, overdueSeq,
                JsonCodec.writeNested(s.definition().snapshot()), p);
        staged.ifPresent(id -> metrics.occurrenceOnCommit(p.policyName()));
        return staged;
    }
}
