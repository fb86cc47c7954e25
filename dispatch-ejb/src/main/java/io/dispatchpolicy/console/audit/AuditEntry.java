package io.dispatchpolicy.console.audit;

import java.io.Serializable;
import java.time.Instant;

/**
 * One row of the audit log: one action on one object.
 *
 * @param outcome {@code done}, {@code refused} (not permitted: nothing changed) or {@code failed} (the action
 *                threw: nothing changed)
 * @param before  the object's value before, as the action saw it (null when it has none to show)
 * @param after   the value after, or what the action answered
 * @param detail  why it was refused or failed; null when done
 */
public record AuditEntry(long id, Instant at, String actor, String action, String targetKind, String target,
                         String before, String after, String outcome, String detail) implements Serializable {
}
