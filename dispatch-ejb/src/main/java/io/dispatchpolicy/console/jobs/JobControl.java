package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.console.audit.Actor;

import java.util.List;
import java.util.Optional;

/** The Jobs view's engine side (the console and the API). Finding and reading need a console user; acting is checked against the actor's roles and audited. */
public interface JobControl {

    /** How many jobs each list by state holds now ({@link JobQuery#STATES}: staged, running, failed in the last hour, dead). */
    java.util.Map<String, Long> stateCounts();

    /** A page of jobs matching the query, newest submission first. */
    List<JobRow> find(JobQuery query);

    /** A job's whole life; empty when no staged row, admission record or dead job has this id (any more). */
    Optional<JobLife> life(long submissionId);

    /**
     * Submits jobs through their policy as an application's {@code DispatchOperator.submitEach} does, as the
     * actor (who must be an operator); audited once per call. All or nothing: a bad option or parameter
     * refuses the call ({@link JobRequestRefused} naming the field), and nothing is staged.
     *
     * @return one entry per job, in the request's order
     */
    List<SubmittedJob> submit(SubmitRequest request, Actor actor);

    /** Asks the job's running execution to stop. @return what was done, for the operator */
    String stop(long submissionId, Actor actor);

    /** Restarts the job's FAILED or STOPPED latest execution through its policy. @return what was done */
    String restart(long submissionId, Actor actor);

    /** Deletes a staged (waiting, scheduled, parked) or dead job. @return what was done */
    String discard(long submissionId, Actor actor);

    /** A group's progress (ADR 0052); empty when no group has this id (any more). */
    Optional<io.dispatchpolicy.api.GroupStatus> group(long groupId);

    /** Cancels a group: its staged members discarded, no callback run. @return what was done, for the operator */
    String cancelGroup(long groupId, Actor actor);
}
