package io.dispatchpolicy.spi;

/**
 * What fairness counts of each partition, decayed with the policy's half-life (ADR 0048): the partition that has
 * had the least of it recently goes first.
 */
public enum FairnessMeasure {
    /** Jobs admitted: every job counts one, however long it runs (the default). */
    ADMISSIONS,
    /**
     * Slot-seconds used: each job's cost times how long it ran (running jobs count as they run), so a tenant whose
     * jobs run ten times longer gets a tenth of the admissions and the same worker time.
     */
    USAGE;

    /** As standalone.xml writes it: {@code admissions} or {@code usage}. */
    public String setting() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
