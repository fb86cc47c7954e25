package io.dispatchpolicy.application;

/** A gate parameter evaluated to a value the gate cannot use (a context function's result, say). */
public class GateParameterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public static final String REASON = "gate_parameter_invalid";

    public GateParameterException(String message) {
        super(message);
    }
}
