package io.dispatchpolicy.api;

import java.util.List;
import java.util.Properties;

/**
 * Submission operations that {@code JobOperator} has no method for. Inject it with
 * {@code @Inject DispatchOperator dispatch;}.
 */
public interface DispatchOperator {

    /**
     * Lowest id a submission can have. Submission ids and JBeret execution ids are disjoint, so the
     * {@link Governed} operator can tell them apart (see docs/adr/0002-submission-api.md).
     */
    long FIRST_SUBMISSION_ID = 1_000_000_000_000L;

    static boolean isSubmissionId(long id) {
        return id >= FIRST_SUBMISSION_ID;
    }

    /**
     * Submits many jobs of one job XML in as few statements as possible, all or nothing: if any of
     * them is rejected, none is staged.
     *
     * @return for a governed job the submission ids, in the order of {@code parameters}; for an
     * ungoverned job the execution ids of the jobs started at once
     */
    long[] submitAll(String jobXmlName, List<Properties> parameters, SubmitOption... options);

    /**
     * As {@link #submitAll}, telling for each job what became of it: staged, a duplicate of the job its
     * uniqueness key names, or debounced into the staged job of its debounce key (ADR 0036).
     */
    List<Submitted> submitEach(String jobXmlName, List<Properties> parameters, SubmitOption... options);

    /**
     * Submits one job with options ({@link SubmitOption#priority(int)}); without options the same as
     * {@code @Governed JobOperator.start}.
     *
     * @return for a governed job its submission id, else the execution id of the job started at once
     */
    long submit(String jobXmlName, Properties parameters, SubmitOption... options);

    /** Where the submission with this id stands. */
    SubmissionStatus status(long submissionId);

    /**
     * Submits a group (ADR 0052): every member staged through its own policy, all or nothing, with the group's
     * callbacks kept until its last member has ended.
     *
     * @return the group's id
     * @throws SubmissionRejectedException when any member or callback would be refused, or a member's job is governed
     *                                     by no policy; nothing is staged
     */
    long submitGroup(JobGroup group);

    /** Where a group stands; {@link GroupStatus#exists()} false for an unknown id. */
    GroupStatus groupStatus(long groupId);

    /**
     * Cancels a group: its staged members are discarded (kept as DISCARDED), running ones go on to their end, and no
     * callback runs. A no-op for a group already cancelled.
     *
     * @return how many staged members were discarded
     * @throws IllegalArgumentException for an unknown id
     */
    int cancelGroup(long groupId);
}
