package io.dispatchpolicy.console;

import io.dispatchpolicy.domain.model.Overrides;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.GateParameterException;
import io.dispatchpolicy.spi.DeclaredGate;
import io.dispatchpolicy.spi.Lane;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an override may say (ADR 0025), checked before anything is written: each refusal names the form's
 * field. A gate override is tried out with the partition's context and the overrides already in force, so
 * it is refused for exactly the reasons the tick would refuse the policy's own value (e.g. an adaptive
 * gate's max below its min).
 */
final class OverrideRules {

    /** Gate parameters that count jobs: whole numbers. */
    private static final Set<String> WHOLE = Set.of("max", "min", "initial-max");

    private OverrideRules() {
    }

    /**
     * @param lane      the partition's lane ({@code ""} outside lanes)
     * @param context   the context its gates evaluate
     * @param current   its key's gate overrides (for a gate change) or its policy's lane overrides
     * @param nowMillis the database's clock
     */
    static void check(EffectivePolicy policy, String lane, Map<String, Object> context, Overrides current,
                      OverrideChange change, long nowMillis) {
        if (change.kind() == null || !(OverrideChange.GATE.equals(change.kind()) || OverrideChange.LANE.equals(change.kind()))) {
            throw new OverrideRefused("kind", "Kind must be 'gate' or 'lane', was '" + change.kind() + "'");
        }
        if (change.value() == null || !Double.isFinite(change.value())) {
            throw new OverrideRefused("value", "Value must be a finite number");
        }
        if (change.until() != null && change.until().toEpochMilli() <= nowMillis) {
            throw new OverrideRefused("until", "Until must be in the future, was " + change.until());
        }
        if (OverrideChange.GATE.equals(change.kind())) {
            checkGate(policy, context, current, change, nowMillis);
        } else {
            checkLane(policy, lane, change);
        }
    }

    private static void checkGate(EffectivePolicy policy, Map<String, Object> context, Overrides current,
                                  OverrideChange change, long nowMillis) {
        DeclaredGate gate = policy.gate(change.scope()).orElseThrow(() -> new OverrideRefused("scope",
                "Policy '" + policy.name() + "' has no gate '" + change.scope() + "'; its gates are "
                        + policy.policy().gates().stream().map(DeclaredGate::id).toList()));
        List<String> params = EffectivePolicy.paramsOf(gate.gate());
        if (!params.contains(change.param())) {
            throw new OverrideRefused("param", "Gate '" + gate.id() + "' (" + gate.gate().type() + ") has no parameter '"
                    + change.param() + "'; its parameters are " + params);
        }
        double v = change.value();
        if (v < 0) {
            throw new OverrideRefused("value", "'" + change.param() + "' must be >= 0, was " + EffectivePolicy.number(v));
        }
        if (WHOLE.contains(change.param()) && v != Math.rint(v)) {
            throw new OverrideRefused("value", "'" + change.param() + "' counts jobs: a whole number, was " + EffectivePolicy.number(v));
        }
        Overrides tried = current.with(gate.id(), change.param(), new Overrides.Entry(v, null, null, nowMillis), nowMillis);
        try {
            policy.withGateOverrides(tried.inForce(nowMillis)).resolveGates(context);
        } catch (GateParameterException e) {
            throw new OverrideRefused("value", e.getMessage());
        }
    }

    private static void checkLane(EffectivePolicy policy, String lane, OverrideChange change) {
        if (lane.isEmpty()) {
            throw new OverrideRefused("scope", "This partition is in no lane: policy '" + policy.name() + "' has "
                    + (policy.hasLanes() ? "lanes, and this is a key's gate row" : "no lanes"));
        }
        if (!lane.equals(change.scope())) {
            throw new OverrideRefused("scope", "This partition is in lane '" + lane + "', not '" + change.scope() + "'");
        }
        if (policy.lanes().stream().map(Lane::name).noneMatch(lane::equals)) {
            throw new OverrideRefused("scope", "Policy '" + policy.name() + "' has no lane '" + lane + "' now");
        }
        double v = change.value();
        if (!"weight".equals(change.param()) && !"min".equals(change.param())) {
            throw new OverrideRefused("param", "A lane's parameter is 'weight' or 'min', was '" + change.param() + "'");
        }
        if (v != Math.rint(v) || v > Integer.MAX_VALUE) {
            throw new OverrideRefused("value", "A lane's " + change.param() + " is a whole number, was " + EffectivePolicy.number(v));
        }
        if ("weight".equals(change.param()) && v < 1) {
            throw new OverrideRefused("value", "A lane's weight must be >= 1, was " + EffectivePolicy.number(v));
        }
        if ("min".equals(change.param()) && v < 0) {
            throw new OverrideRefused("value", "A lane's min must be >= 0, was " + EffectivePolicy.number(v));
        }
    }
}
