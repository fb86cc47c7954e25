package io.dispatchpolicy.console.monitoring;

/**
 * A plain-language warning shown when a threshold is crossed.
 *
 * @param level {@code warning} or {@code critical}
 */
public record Hint(String level, String text) implements java.io.Serializable {

    public static Hint warning(String text) {
        return new Hint("warning", text);
    }

    public static Hint critical(String text) {
        return new Hint("critical", text);
    }
}
