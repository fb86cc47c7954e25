package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.DeadJobQuery;
import io.dispatchpolicy.console.monitoring.DeadJobView;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.primefaces.model.FilterMeta;
import org.primefaces.model.LazyDataModel;
import org.primefaces.model.SortMeta;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Dead view: jobs whose policy's retries are spent, searched and filtered in the database; an
 * admin retries them now or discards them, one (row buttons) or many (the selection) at once.
 */
@Named
@ViewScoped
public class DeadView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient DeadJobControl dead;

    @Inject
    @Engine
    transient Monitoring monitoring;

    @Inject
    ConsoleUser user;

    private String policy;
    private String partition;
    private String job;
    private String text;
    private List<DeadJobView> selected = new ArrayList<>();

    private final LazyDataModel<DeadJobView> model = new LazyDataModel<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public int count(Map<String, FilterMeta> filterBy) {
            return (int) Math.min(Integer.MAX_VALUE, dead.count(query(0, 1)));
        }

        @Override
        public List<DeadJobView> load(int first, int pageSize, Map<String, SortMeta> sortBy, Map<String, FilterMeta> filterBy) {
            return dead.page(query(first, pageSize));
        }

        @Override
        public String getRowKey(DeadJobView job) {
            return Long.toString(job.submissionId());
        }

        @Override
        public DeadJobView getRowData(String rowKey) {
            // the selection needs only the ids; the engine locks and re-reads the rows it acts on
            long id = Long.parseLong(rowKey);
            return new DeadJobView(id, null, 0, null, null, 0, 0, 0, null, null, null, null);
        }
    };

    private DeadJobQuery query(int first, int pageSize) {
        return new DeadJobQuery(policy, partition, job, text, first, pageSize);
    }

    public void retry(long submissionId) {
        act(List.of(submissionId), true);
    }

    public void discard(long submissionId) {
        act(List.of(submissionId), false);
    }

    public void retrySelected() {
        act(ids(), true);
    }

    public void discardSelected() {
        act(ids(), false);
    }

    private void act(List<Long> ids, boolean retry) {
        if (ids.isEmpty()) {
            ConsoleUser.info("Nothing selected.");
            return;
        }
        int[] n = {0};
        if (!user.act(() -> {
            n[0] = retry ? dead.retryNow(ids, user.getActor()) : dead.discard(ids, user.getActor());
            return true;
        })) {
            return;
        }
        int done = n[0];
        selected = new ArrayList<>();
        ConsoleUser.info((retry ? "Retrying " : "Discarded ") + done + " of " + ids.size() + " dead job(s)"
                + (done < ids.size() ? " (the others were no longer dead)" : "") + ".");
    }

    private List<Long> ids() {
        return selected == null ? List.of() : selected.stream().map(DeadJobView::submissionId).toList();
    }

    public LazyDataModel<DeadJobView> getModel() {
        return model;
    }

    public List<String> getPolicyNames() {
        return monitoring.policyNames();
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    public String getPartition() {
        return partition;
    }

    public void setPartition(String partition) {
        this.partition = partition;
    }

    public String getJob() {
        return job;
    }

    public void setJob(String job) {
        this.job = job;
    }

    public String getText() {
        return text;
    }

    public void setText(String text) {
        this.text = text;
    }

    public List<DeadJobView> getSelected() {
        return selected;
    }

    public void setSelected(List<DeadJobView> selected) {
        this.selected = selected;
    }
}
