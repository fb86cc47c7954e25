package io.dispatchpolicy.spi;

import java.util.regex.Pattern;

/**
 * A lane of a policy: a share of whatever is scarce for the policy (its capacity, its tick budget),
 * in proportion to {@code weight} among the lanes that have admissible work, with {@code min} slots of
 * the capacity reserved for it while it has work (ADR 0011).
 *
 * <p>Two limits bound how far the sharing goes (ADR 0047), as Kueue's cohorts bound borrowing: a <b>lending limit</b>
 * says how much of the lane's minimum the other lanes may use while it is idle — the rest stays free for it, so
 * work arriving finds it at once instead of waiting for other lanes' jobs to end; a <b>borrowing limit</b> says how
 * far beyond its share (its minimum, or its weight's part of the capacity, whichever is larger) the lane may go
 * when the others are idle. Both are held at every admission under the capacity's lock; within them the
 * sharing stays work-conserving.
 *
 * @param name           letters, digits, '_', '.' or '-' (at most 63)
 * @param weight         at least 1
 * @param min            slots of the policy's capacity guaranteed to this lane while it has admissible work (0: none)
 * @param lendingLimit   at most this many of its {@code min} slots are used by other lanes while it does not use
 *                       them (0 to {@code min}); null: all of them
 * @param borrowingLimit at most this many slots beyond its share; null: no limit
 */
public record Lane(String name, int weight, int min, Integer lendingLimit, Integer borrowingLimit) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    public Lane {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new PolicyDeclarationException("Lane name '" + name
                    + "' is invalid: use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
        }
        if (weight < 1) {
            throw new PolicyDeclarationException("Lane '" + name + "': weight must be >= 1, was " + weight);
        }
        if (min < 0) {
            throw new PolicyDeclarationException("Lane '" + name + "': min must be >= 0, was " + min);
        }
        if (lendingLimit != null && (lendingLimit < 0 || lendingLimit > min)) {
            throw new PolicyDeclarationException("Lane '" + name + "': lending limit must be between 0 and its min " + min
                    + ", was " + lendingLimit);
        }
        if (borrowingLimit != null && borrowingLimit < 0) {
            throw new PolicyDeclarationException("Lane '" + name + "': borrowing limit must be >= 0, was " + borrowingLimit);
        }
    }

    /** A lane without lending or borrowing limits. */
    public Lane(String name, int weight, int min) {
        this(name, weight, min, null, null);
    }

    /** This lane, lending at most {@code slots} of its minimum to the other lanes while it does not use them. */
    public Lane lendingLimit(int slots) {
        return new Lane(name, weight, min, slots, borrowingLimit);
    }

    /** This lane, taking at most {@code slots} beyond its share when the other lanes leave slots free. */
    public Lane borrowingLimit(int slots) {
        return new Lane(name, weight, min, lendingLimit, slots);
    }

    /** Whether either limit is set: the admission then counts the policy's slots by lane. */
    public boolean limited() {
        return lendingLimit != null || borrowingLimit != null;
    }

    /**
     * Lanes as standalone.xml writes them: {@code name:weight[:min[:lend=n][:borrow=n]]}, comma-separated, e.g.
     * {@code critical:6:4:lend=1,default:3:2,bulk:1:0:borrow=4}.
     *
     * @throws PolicyDeclarationException naming the part that is wrong
     */
    public static java.util.List<Lane> parse(String text) {
        java.util.List<Lane> lanes = new java.util.ArrayList<>();
        for (String part : text.split(",")) {
            String[] fields = part.strip().split(":");
            if (fields.length < 2 || fields.length > 5) {
                throw new PolicyDeclarationException("'" + part.strip() + "' is not name:weight[:min[:lend=n][:borrow=n]]");
            }
            Integer lend = null;
            Integer borrow = null;
            try {
                for (int i = 3; i < fields.length; i++) {
                    String field = fields[i].strip();
                    if (field.startsWith("lend=") && lend == null) {
                        lend = Integer.parseInt(field.substring(5).strip());
                    } else if (field.startsWith("borrow=") && borrow == null) {
                        borrow = Integer.parseInt(field.substring(7).strip());
                    } else {
                        throw new PolicyDeclarationException("'" + part.strip() + "': '" + field
                                + "' is neither lend=n nor borrow=n (each at most once, after the min)");
                    }
                }
                lanes.add(new Lane(fields[0].strip(), Integer.parseInt(fields[1].strip()),
                        fields.length >= 3 ? Integer.parseInt(fields[2].strip()) : 0, lend, borrow));
            } catch (NumberFormatException e) {
                throw new PolicyDeclarationException("'" + part.strip() + "': weight, min and limits must be whole numbers");
            }
        }
        return lanes;
    }

    /** As {@link #parse} reads it back. */
    public String format() {
        return name + ":" + weight + ":" + min + (lendingLimit == null ? "" : ":lend=" + lendingLimit)
                + (borrowingLimit == null ? "" : ":borrow=" + borrowingLimit);
    }
}
