package io.dispatchpolicy.it;

import io.dispatchpolicy.spi.JobsAdmitting;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Resource;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Injects a fault into the admission transaction of one policy, after JBeret's INSERTs: the
 * {@link JobsAdmitting} observer throws, as a crash between those INSERTs and the commit would.
 */
@ApplicationScoped
public class AdmissionFault {

    private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();
    private static final Set<String> ARMED_PARTITIONS = ConcurrentHashMap.newKeySet();
    private static final Map<String, List<Object>> TRANSACTIONS = new ConcurrentHashMap<>();
    private static final Set<Long> SEEN_EXECUTIONS = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger ATTEMPTS = new AtomicInteger();

    public static void arm(String policy) {
        ARMED.add(policy);
    }

    public static void disarm(String policy) {
        ARMED.remove(policy);
    }

    public static Set<Long> executionsRolledBack() {
        return Set.copyOf(SEEN_EXECUTIONS);
    }

    public static int attempts() {
        return ATTEMPTS.get();
    }

    /** Faults only the admissions of one partition of the policy. */
    public static void armPartition(String policy, String partitionKey) {
        ARMED_PARTITIONS.add(policy + "/" + partitionKey);
    }

    public static void disarmPartition(String policy, String partitionKey) {
        ARMED_PARTITIONS.remove(policy + "/" + partitionKey);
    }

    /** The transaction of each admission of the policy's partition so far (a rolled-back one included). */
    public static List<Object> transactionsOf(String policy, String partitionKey) {
        return List.copyOf(TRANSACTIONS.getOrDefault(policy + "/" + partitionKey, List.of()));
    }

    @Resource
    TransactionSynchronizationRegistry registry;

    void onAdmitting(@Observes JobsAdmitting event) {
        String partition = event.policyName() + "/" + event.partitionKey();
        TRANSACTIONS.computeIfAbsent(partition, k -> new CopyOnWriteArrayList<>()).add(registry.getTransactionKey());
        if (ARMED.contains(event.policyName()) || ARMED_PARTITIONS.contains(partition)) {
            event.admitted().forEach(a -> SEEN_EXECUTIONS.add(a.executionId()));
            ATTEMPTS.incrementAndGet();
            throw new IllegalStateException("Injected fault after JBeret's INSERT for " + event.admitted().size() + " job(s)");
        }
    }
}
