package io.dispatchpolicy.console.audit;

import jakarta.ejb.Local;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;

/**
 * Writes and reads the audit log. A done action's row is written in the action's own transaction, so it
 * commits exactly when the action does; a refused or failed one's in a transaction of its own, since the
 * action's is rolled back.
 *
 * <p>Both views: the engine's own callers use the bean (its transaction attributes), the console finds
 * {@link AuditLog} by its JNDI name.
 */
@Stateless
@LocalBean
@Local(AuditLog.class)
public class AuditTrail implements AuditLog {

    @Inject
    AuditRepository rows;

    public void done(Actor actor, OperatorAction action, String target, String before, String after) {
        rows.insert(actor, action, target, before, after, "done", null);
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void notDone(Actor actor, OperatorAction action, String target, String before, String outcome, String detail) {
        rows.insert(actor, action, target, before, null, outcome, detail);
    }

    @Override
    public List<AuditEntry> find(AuditQuery query) {
        return rows.find(query);
    }
}
