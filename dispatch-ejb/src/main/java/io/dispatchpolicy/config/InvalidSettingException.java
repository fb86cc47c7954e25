package io.dispatchpolicy.config;

/** A {@code dispatch.*} setting has a value the engine cannot use; the message names the property. */
public class InvalidSettingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;

    public InvalidSettingException(String property, String value, String expected) {
        super("Invalid value '" + value + "' for " + property + ": expected " + expected);
        this.property = property;
        this.value = value;
    }

    /** The offending property's name. */
    public String property() {
        return property;
    }

    /** The value it has. */
    public String value() {
        return value;
    }
}
