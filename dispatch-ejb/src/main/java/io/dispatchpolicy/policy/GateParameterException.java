package io.dispatchpolicy.policy;

import io.dispatchpolicy.domain.model.Denial;

/** A gate parameter evaluated to a value the gate cannot use (a context function's result, say). */
public class GateParameterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public static final String REASON = Denial.GATE_PARAMETER_INVALID;

    public GateParameterException(String message) {
        super(message);
    }
}
