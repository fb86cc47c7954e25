package io.dispatchpolicy.schedule;

import jakarta.ejb.ApplicationException;

/**
 * A schedule action that cannot be carried out (an unknown schedule, a definition whose occurrences a
 * submission would be refused for, a change racing another); the transaction rolls back, nothing changed.
 */
@ApplicationException(rollback = true)
public class ScheduleActionRefused extends RuntimeException {

    public ScheduleActionRefused(String message) {
        super(message);
    }

    public ScheduleActionRefused(String message, Throwable cause) {
        super(message, cause);
    }
}
