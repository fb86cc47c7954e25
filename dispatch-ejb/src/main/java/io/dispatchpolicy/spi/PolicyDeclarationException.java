package io.dispatchpolicy.spi;

/** A policy was declared wrongly; raised at deployment, so the mistake cannot reach production traffic. */
public class PolicyDeclarationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PolicyDeclarationException(String message) {
        super(message);
    }
}
