package io.dispatchpolicy.console.monitoring;

/**
 * One lane of a policy on the policies page.
 *
 * @param lends      how much of its min it lends while idle (ADR 0047); null: all of it
 * @param borrows    how far beyond its share it may go; null: no limit
 * @param inFlight   its jobs in flight now
 * @param share1m    its share of the policy's admissions over the last minute, 0–1 (null: none admitted)
 * @param share5m    … over five minutes
 * @param share15m   … over fifteen minutes
 */
public record LaneView(String name, int weight, int min, Integer lends, Integer borrows, long inFlight, Double share1m, Double share5m, Double share15m) implements java.io.Serializable {
}
