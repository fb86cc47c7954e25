package io.dispatchpolicy.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * The known name closest to a mistyped one, for messages ("did you mean 'reports'?"): the least edit
 * distance (insertions, deletions, substitutions, and a swap of two neighbours counted as one), if it is
 * at most a third of the name's length (at least 2); the first in order on a tie.
 */
public final class NearestName {

    private NearestName() {
    }

    public static Optional<String> to(String name, Collection<String> known) {
        int limit = Math.max(2, name.length() / 3);
        return known.stream().sorted()
                .map(k -> new Object() { final String candidate = k; final int distance = distance(name, k); })
                .filter(c -> c.distance <= limit)
                .min(Comparator.comparingInt(c -> c.distance))
                .map(c -> c.candidate);
    }

    /** Optimal string alignment distance. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
