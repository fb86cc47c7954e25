package io.dispatchpolicy.console.bulk;

import io.dispatchpolicy.console.audit.Actor;

import java.util.List;
import java.util.Optional;

/**
 * Bulk actions by filter (ADR 0039): preview how many jobs match, start one (it runs asynchronously in bounded
 * batches on whichever node's maintenance takes it), follow its progress, cancel it. Starting and cancelling
 * need dispatch-operator and are audited: one row per request, whatever the number of jobs.
 */
public interface BulkActionControl {

    /** How many jobs {@code kind} would act on now; refuses a filter that matches everything. */
    long preview(BulkKind kind, JobFilter filter);

    /** Starts the action on the jobs that match now (later submissions are not touched); @return it, running */
    BulkActionView start(BulkKind kind, JobFilter filter, Actor actor);

    Optional<BulkActionView> find(long id);

    /** The newest first. */
    List<BulkActionView> recent(int limit);

    /** Asks a running action to stop after its current batch; @return it as it is now */
    BulkActionView cancel(long id, Actor actor);
}
