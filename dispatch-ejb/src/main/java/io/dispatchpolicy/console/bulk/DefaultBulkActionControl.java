package io.dispatchpolicy.console.bulk;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/** {@link BulkActionControl}: each request checked and audited once; the jobs are acted on by {@link BulkActionRunner}. */
@Stateless
public class DefaultBulkActionControl implements BulkActionControl {

    private static final Logger LOG = Logger.getLogger(DefaultBulkActionControl.class.getName());

    /** The most a list of bulk actions shows. */
    static final int MAX_LIST = 200;

    @Inject
    BulkActionRepository repository;

    @Inject
    Audited audited;

    @Override
    public long preview(BulkKind kind, JobFilter filter) {
        return repository.count(kind, filter.validate(), repository.upper());
    }

    @Override
    public BulkActionView start(BulkKind kind, JobFilter filter, Actor actor) {
        return audited.act(actor, OperatorAction.BULK_ACTION, kind.name() + " " + filter, () -> {
            filter.validate();
            long upper = repository.upper();
            long matched = repository.count(kind, filter, upper);
            long id = repository.insert(kind, filter, actor.name(), matched, upper);
            LOG.info(() -> "Bulk action " + id + " by " + actor.name() + ": " + kind.verb() + " matching " + filter + ", " + matched + " now");
            return repository.find(id).orElseThrow();
        }, view -> "bulk action " + view.id() + ": " + kind.verb() + ", " + view.matched() + " matched");
    }

    @Override
    public Optional<BulkActionView> find(long id) {
        return repository.find(id);
    }

    @Override
    public List<BulkActionView> recent(int limit) {
        return repository.recent(Math.max(1, Math.min(limit, MAX_LIST)));
    }

    @Override
    public BulkActionView cancel(long id, Actor actor) {
        return audited.act(actor, OperatorAction.BULK_CANCEL, String.valueOf(id), () -> repository.find(id).map(BulkActionView::state).orElse(null),
                () -> {
                    BulkActionView view = repository.find(id).orElseThrow(() -> BulkActionRefused.missing(id));
                    if (!repository.requestCancel(id, actor.name())) {
                        throw BulkActionRefused.state("Bulk action " + id + " is " + view.state() + ": only a running one is cancelled");
                    }
                    return repository.find(id).orElseThrow();
                }, view -> "cancel asked after " + view.done() + " of " + view.matched());
    }
}
