package io.dispatchpolicy.config;

import jakarta.ejb.ApplicationException;

/**
 * A {@code dispatch.*} setting has a value the engine cannot use; the message names the property. An
 * operator's mistake, not the engine's failure: it leaves the engine's beans as it is (not wrapped in an
 * EJBException, which the container would log as an ERROR), and rolls back what it interrupted.
 */
@ApplicationException(rollback = true)
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
