package io.dispatchpolicy.faults.app;

import io.dispatchpolicy.api.DispatchOperator;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Stages a storm of submissions of one of the storm jobs ({@link FaultPolicies#STORM_JOBS}; by default
 * {@code fault-job}) spread round-robin over tenants. (Being a session
 * bean also makes this jar an EJB module, which the engine scans for policies and job XMLs.)
 */
@Stateless
// No transaction of ours: each chunk is its own all-or-nothing submitAll, committed before the next,
// so the tick starts admitting while the rest of a large storm is still being staged.
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class StormSubmitter {

    static final int CHUNK = 500;

    @Inject
    DispatchOperator dispatch;

    /**
     * @param sleep {@code "100"} or a range {@code "50-200"}; job {@code i} sleeps a value spread
     *              deterministically over the range
     * @return the submission ids, in submission order
     */
    public List<Long> submit(String job, int count, int tenants, String sleep, int firstIndex) {
        if (!FaultPolicies.STORM_JOBS.contains(job)) {
            throw new IllegalArgumentException("Not a storm job: " + job);
        }
        long[] range = range(sleep);
        List<Long> ids = new ArrayList<>(count);
        for (int from = 0; from < count; from += CHUNK) {
            List<Properties> chunk = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + CHUNK); i++) {
                int index = firstIndex + i;
                Properties p = new Properties();
                p.setProperty("tenant", String.format("t%02d", index % tenants));
                p.setProperty("sleepMs", Long.toString(range[0] + Math.floorMod(index * 7919L, range[1] - range[0] + 1)));
                p.setProperty("stormIndex", Integer.toString(index));
                chunk.add(p);
            }
            for (long id : dispatch.submitAll(job, chunk)) {
                ids.add(id);
            }
        }
        return ids;
    }

    private static long[] range(String sleep) {
        String[] parts = sleep.strip().split("-", 2);
        long min = Long.parseLong(parts[0].strip());
        long max = parts.length == 2 ? Long.parseLong(parts[1].strip()) : min;
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("sleepMs must be N or MIN-MAX with 0 <= MIN <= MAX: " + sleep);
        }
        return new long[] {min, max};
    }
}
