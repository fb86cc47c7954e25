package io.dispatchpolicy.spi;

import jakarta.ejb.ApplicationException;

/**
 * A schedule was declared wrongly. Raised at deployment for a code or standalone.xml declaration, so the
 * mistake cannot reach production; the message names the schedule and the field ({@code Schedule 'nightly':
 * unit must be one of …}). The console's form shows it as its field's error; thrown through an engine
 * bean it rolls the transaction back and reaches the caller as it is.
 */
@ApplicationException(rollback = true)
public class ScheduleDeclarationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ScheduleDeclarationException(String message) {
        super(message);
    }
}
