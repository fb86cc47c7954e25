package io.dispatchpolicy.it;

import io.dispatchpolicy.spi.JobsAdmitting;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Injects a fault into the admission transaction of one policy, after JBeret's INSERTs: the
 * {@link JobsAdmitting} observer throws, as a crash between those INSERTs and the commit would.
 */
@ApplicationScoped
public class AdmissionFault {

    private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();
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

    void onAdmitting(@Observes JobsAdmitting event) {
        if (ARMED.contains(event.policyName())) {
            event.admitted().forEach(a -> SEEN_EXECUTIONS.add(a.executionId()));
            ATTEMPTS.incrementAndGet();
            throw new IllegalStateException("Injected fault after JBeret's INSERT for " + event.admitted().size() + " job(s)");
        }
    }
}
