package io.dispatchpolicy.console;

import jakarta.ejb.ApplicationException;

/** An override that cannot be set as asked; {@link #field()} names the form's field at fault. Nothing changed. */
@ApplicationException(rollback = true)
public class OverrideRefused extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public OverrideRefused(String field, String message) {
        super(message);
        this.field = field;
    }

    /** {@code kind}, {@code scope}, {@code param}, {@code value}, {@code until} or {@code partition}. */
    public String field() {
        return field;
    }
}
