package io.dispatchpolicy.tick;

import java.util.Map;
import java.util.TreeMap;

/** What tick iterations did: partitions claimed, jobs admitted, partitions denied by reason. */
public final class IterationReport {

    private int iterations;
    private int claimed;
    private int admitted;
    private final Map<String, Integer> denied = new TreeMap<>();

    void claimed(int n) {
        iterations++;
        claimed += n;
    }

    /** More partitions claimed by the same iteration (a lane's claim). */
    void alsoClaimed(int n) {
        claimed += n;
    }

    void admitted(int n) {
        admitted += n;
    }

    void denied(String reason) {
        denied.merge(reason, 1, Integer::sum);
    }

    void add(IterationReport other) {
        iterations += other.iterations;
        claimed += other.claimed;
        admitted += other.admitted;
        other.denied.forEach((reason, n) -> denied.merge(reason, n, Integer::sum));
    }

    public int iterations() {
        return iterations;
    }

    public int claimed() {
        return claimed;
    }

    public int admitted() {
        return admitted;
    }

    public Map<String, Integer> denied() {
        return denied;
    }
}
