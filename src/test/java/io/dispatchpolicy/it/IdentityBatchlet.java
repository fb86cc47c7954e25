package io.dispatchpolicy.it;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Calls {@link ReportsBean} (role "reports") and records, per tenant, who the container said the caller was
 * on each run, or the refusal; with {@code failTimes}, its first runs fail after the call (so retries and restarts run).
 */
@Dependent
@Named("identityBatchlet")
public class IdentityBatchlet extends AbstractBatchlet {

    static final Map<String, List<String>> CALLERS = new ConcurrentHashMap<>();

    @EJB
    ReportsBean reports;

    @Inject
    JobContext job;

    @Inject
    @BatchProperty
    String tenant;

    @Inject
    @BatchProperty
    String failTimes;

    @Override
    public String process() {
        List<String> runs = CALLERS.computeIfAbsent(tenant, t -> new CopyOnWriteArrayList<>());
        String caller;
        try {
            caller = reports.whoAmI();
        } catch (RuntimeException refused) {
            runs.add("refused: " + refused.getClass().getSimpleName());
            job.setExitStatus("REFUSED " + refused.getClass().getSimpleName());
            throw refused;
        }
        runs.add(caller);
        if (failTimes != null && !failTimes.isEmpty() && runs.size() <= Integer.parseInt(failTimes)) {
            throw new IllegalStateException("run " + runs.size() + " fails as asked");
        }
        return "COMPLETED";
    }
}
