package io.dispatchpolicy.console.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs an operator action as the boundary requires: refused (and recorded as refused, nothing changed)
 * when the actor's roles do not include the one the action needs; else run, and recorded with the object's
 * value before and after — or as failed, with the error, when it throws. Exactly one audit row per call.
 */
@ApplicationScoped
public class Audited {

    @Inject
    AuditTrail trail;

    /**
     * @param target what the action names (a job's submission id, a partition id, a policy or schedule name)
     * @param before the object's value before the action, read in the action's transaction (null: none)
     * @param work   the action
     * @param after  the value after, from the action's result
     * @throws ActionRefused when the actor may not do it
     */
    public <T> T act(Actor actor, OperatorAction action, String target, Supplier<String> before, Supplier<T> work,
                     Function<T, String> after) {
        if (actor == null || !actor.may(action)) {
            Actor who = actor == null ? Actor.of("(nobody)") : actor;
            String refusal = who.refusal(action);
            trail.notDone(who, action, target, null, "refused", refusal);
            throw new ActionRefused(refusal);
        }
        String was = before.get();
        T result;
        try {
            result = work.get();
        } catch (RuntimeException e) {
            trail.notDone(actor, action, target, was, "failed", String.valueOf(e.getMessage()));
            throw e;
        }
        trail.done(actor, action, target, was, after.apply(result));
        return result;
    }

    /** {@link #act} for an action with nothing to show before it. */
    public <T> T act(Actor actor, OperatorAction action, String target, Supplier<T> work, Function<T, String> after) {
        return act(actor, action, target, () -> null, work, after);
    }
}
