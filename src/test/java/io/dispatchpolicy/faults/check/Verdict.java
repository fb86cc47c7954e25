package io.dispatchpolicy.faults.check;

import java.util.List;
import java.util.Map;

/**
 * The outcome of the invariants: the figures the report shows and every violation found, each a
 * sentence that says what is wrong and shows up to ten examples.
 */
public record Verdict(Map<String, Object> figures, List<String> violations) {

    public boolean holds() {
        return violations.isEmpty();
    }

    /** The assertion message: every violation on its own line. */
    public String describe() {
        return violations.size() + " invariant violation(s):\n - " + String.join("\n - ", violations);
    }
}
