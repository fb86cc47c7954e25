package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A demotion rule: when a tenant's submissions in the sliding window {@code per} exceed
 * {@code threshold}, its new submissions go to lane {@code lane}. Of several rules that match, the last
 * declared wins (write them from least to most restrictive). Counted in buckets of one second for
 * windows up to a minute, of one minute for longer ones (ADR 0011).
 *
 * @param threshold submissions in the window allowed before demotion (at least 0)
 * @param per       the window: 1 second to 1 day
 * @param lane      where the tenant's new submissions go meanwhile
 */
public record Demotion(int threshold, Duration per, String lane) {

    /** The longest window a rule may have: the sweeper keeps a day of counts. */
    public static final Duration LONGEST = Duration.ofDays(1);

    public Demotion {
        if (threshold < 0) {
            throw new PolicyDeclarationException("demote: threshold must be >= 0, was " + threshold);
        }
        if (per == null || per.toSeconds() < 1 || per.compareTo(LONGEST) > 0) {
            throw new PolicyDeclarationException("demote: the window must be from 1 second to 1 day, was " + per);
        }
        if (lane == null || lane.isBlank()) {
            throw new PolicyDeclarationException("demote: the lane must be named");
        }
    }

    /** The counting resolution of this rule's window, in seconds: 1 up to a minute, else 60. */
    public int resolutionSeconds() {
        return per.toSeconds() <= 60 ? 1 : 60;
    }

    /**
     * How many buckets of each resolution the rules need counted: the longest window at that resolution
     * over the bucket's length, rounded up (a tenant's count row keeps that many, ADR 0011).
     *
     * @return by resolution in seconds, ascending
     */
    public static java.util.SortedMap<Integer, Integer> slotsByResolution(List<Demotion> rules) {
        java.util.SortedMap<Integer, Integer> slots = new java.util.TreeMap<>();
        for (Demotion rule : rules) {
            int resolution = rule.resolutionSeconds();
            int needed = (int) ((rule.per.toSeconds() + resolution - 1) / resolution);
            slots.merge(resolution, needed, Math::max);
        }
        return slots;
    }

    /**
     * Rules as standalone.xml writes them: {@code threshold:seconds:lane}, comma-separated, e.g.
     * {@code 100:3600:throttled,10:60:superslow}.
     */
    public static List<Demotion> parse(String text) {
        List<Demotion> rules = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] fields = part.strip().split(":");
            if (fields.length != 3) {
                throw new PolicyDeclarationException("'" + part.strip() + "' is not threshold:seconds:lane");
            }
            try {
                rules.add(new Demotion(Integer.parseInt(fields[0].strip()), Duration.ofSeconds(Long.parseLong(fields[1].strip())),
                        fields[2].strip()));
            } catch (NumberFormatException e) {
                throw new PolicyDeclarationException("'" + part.strip() + "': threshold and seconds must be whole numbers");
            }
        }
        return rules;
    }

    /** As standalone.xml writes it. */
    public String describe() {
        return threshold + ":" + per.toSeconds() + ":" + lane;
    }
}
