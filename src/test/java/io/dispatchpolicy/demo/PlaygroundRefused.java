package io.dispatchpolicy.demo;

/** A playground request refused: the form field at fault (null when it is the state, not a field) and why. */
public final class PlaygroundRefused extends RuntimeException {

    private final String field;

    public PlaygroundRefused(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The field at fault, or null when the request is refused for the playground's state (a storm already blowing). */
    public String field() {
        return field;
    }
}
