package io.dispatchpolicy.config;

/** A {@code dispatch.*} setting has a value the engine cannot use; the message names the property. */
public class InvalidSettingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidSettingException(String property, String value, String expected) {
        super("Invalid value '" + value + "' for " + property + ": expected " + expected);
    }
}
