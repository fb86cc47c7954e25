package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PartitionQuery;
import io.dispatchpolicy.domain.model.Partition;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.primefaces.model.FilterMeta;
import org.primefaces.model.LazyDataModel;
import org.primefaces.model.SortMeta;
import org.primefaces.model.SortOrder;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/** The partitions browser: searched, filtered by policy, sorted and paged in the database. */
@Named
@ViewScoped
public class PartitionsView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient Monitoring monitoring;


    private String search;
    private String policy;

    private final LazyDataModel<Partition> model = new LazyDataModel<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public int count(Map<String, FilterMeta> filterBy) {
            return (int) Math.min(Integer.MAX_VALUE, monitoring.countPartitions(query(null, true, 0, 1)));
        }

        @Override
        public List<Partition> load(int first, int pageSize, Map<String, SortMeta> sortBy, Map<String, FilterMeta> filterBy) {
            SortMeta sort = sortBy == null || sortBy.isEmpty() ? null : sortBy.values().iterator().next();
            String field = sort == null ? "pendingCount" : sort.getField();
            boolean ascending = sort != null && sort.getOrder() == SortOrder.ASCENDING;
            return monitoring.partitions(query(field, ascending, first, pageSize));
        }

        @Override
        public String getRowKey(Partition partition) {
            return Long.toString(partition.getId());
        }

        @Override
        public Partition getRowData(String rowKey) {
            return null;
        }
    };

    private PartitionQuery query(String field, boolean ascending, int first, int pageSize) {
        return new PartitionQuery(policy, search, field, ascending, first, pageSize);
    }

    public LazyDataModel<Partition> getModel() {
        return model;
    }

    public List<String> getPolicyNames() {
        return monitoring.policyNames();
    }

    public String getSearch() {
        return search;
    }

    public void setSearch(String search) {
        this.search = search;
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }
}
