package io.dispatchpolicy.spi;

import java.util.regex.Pattern;

/**
 * A lane of a policy: a share of whatever is scarce for the policy (its capacity, its tick budget),
 * in proportion to {@code weight} among the lanes that have admissible work, with {@code min} slots of
 * the capacity reserved for it while it has work (ADR 0011).
 *
 * @param name   letters, digits, '_', '.' or '-' (at most 63)
 * @param weight at least 1
 * @param min    slots of the policy's capacity guaranteed to this lane while it has admissible work (0: none)
 */
public record Lane(String name, int weight, int min) {

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
    }

    /**
     * Lanes as standalone.xml writes them: {@code name:weight[:min]}, comma-separated, e.g.
     * {@code critical:6,default:3:2,bulk:1}.
     *
     * @throws PolicyDeclarationException naming the part that is wrong
     */
    public static java.util.List<Lane> parse(String text) {
        java.util.List<Lane> lanes = new java.util.ArrayList<>();
        for (String part : text.split(",")) {
            String[] fields = part.strip().split(":");
            if (fields.length < 2 || fields.length > 3) {
                throw new PolicyDeclarationException("'" + part.strip() + "' is not name:weight or name:weight:min");
            }
            try {
                lanes.add(new Lane(fields[0].strip(), Integer.parseInt(fields[1].strip()),
                        fields.length == 3 ? Integer.parseInt(fields[2].strip()) : 0));
            } catch (NumberFormatException e) {
                throw new PolicyDeclarationException("'" + part.strip() + "': weight and min must be whole numbers");
            }
        }
        return lanes;
    }
}
