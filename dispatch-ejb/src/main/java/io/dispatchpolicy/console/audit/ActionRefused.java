package io.dispatchpolicy.console.audit;

import jakarta.ejb.ApplicationException;

/** An action the actor may not do: nothing was changed; the message says why. */
@ApplicationException(rollback = true)
public class ActionRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ActionRefused(String message) {
        super(message);
    }
}
