package io.dispatchpolicy.domain.shard;

/** What a shard may be called: the setting lists shards separated by commas, and the console shows them. */
public final class ShardNames {

    /** Longest shard name: shown on the dashboard and compared on every claim. */
    public static final int MAX_LENGTH = 128;

    private ShardNames() {
    }

    /** Why {@code name} cannot be a shard (as "a … shard"), or null when it can. */
    public static String problem(String name) {
        if (name == null) {
            return "a null shard";
        }
        if (name.isBlank()) {
            return "a blank shard";
        }
        if (name.length() > MAX_LENGTH) {
            return "a shard of " + name.length() + " characters (at most " + MAX_LENGTH + ")";
        }
        if (name.chars().anyMatch(ch -> ch == ',' || Character.isWhitespace(ch) || Character.isISOControl(ch))) {
            return "the shard '" + name + "', which has a comma, a space or a control character";
        }
        return null;
    }
}
