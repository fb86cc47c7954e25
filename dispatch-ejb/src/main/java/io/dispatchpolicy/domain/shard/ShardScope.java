package io.dispatchpolicy.domain.shard;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The partitions a node's tick claims: every shard (no {@code dispatch.shards}), or the named shards plus
 * the partitions of unsharded policies (shard {@code ""}), which any node may admit.
 */
public final class ShardScope {

    /** The shard of every partition of a policy without shardBy. */
    public static final String UNSHARDED = "";

    private static final ShardScope ALL = new ShardScope(null);

    /** Null for every shard; else the named shards and {@link #UNSHARDED}, sorted. */
    private final List<String> claimed;

    private ShardScope(List<String> claimed) {
        this.claimed = claimed;
    }

    public static ShardScope all() {
        return ALL;
    }

    /**
     * The scope of a {@code dispatch.shards} value: shard names separated by commas (blanks around them
     * ignored); empty or {@code *} for every shard.
     *
     * @throws IllegalArgumentException naming what is wrong with the value
     */
    public static ShardScope parse(String value) {
        if (value == null || value.isBlank() || value.strip().equals("*")) {
            return ALL;
        }
        Set<String> names = new TreeSet<>();
        for (String part : value.split(",", -1)) {
            String name = part.strip();
            String problem = ShardNames.problem(name);
            if (problem != null) {
                throw new IllegalArgumentException("shard names separated by commas, or * for every shard: "
                        + (name.isEmpty() ? "an empty name" : problem));
            }
            names.add(name);
        }
        List<String> claimed = new ArrayList<>(names.size() + 1);
        claimed.add(UNSHARDED);
        claimed.addAll(names);
        return new ShardScope(Collections.unmodifiableList(claimed));
    }

    public boolean everyShard() {
        return claimed == null;
    }

    /** The named shards (not {@link #UNSHARDED}); empty for every shard. */
    public List<String> named() {
        return claimed == null ? List.of() : claimed.subList(1, claimed.size());
    }

    /** The shards claimed one by one, {@link #UNSHARDED} first; empty for every shard (one claim over all). */
    public List<String> claimed() {
        return claimed == null ? List.of() : claimed;
    }

    /** Each claimed shard's part of a batch of {@code limit} partitions: at least one each. */
    public int share(int limit) {
        return claimed == null ? limit : Math.max(1, (limit + claimed.size() - 1) / claimed.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardScope other && java.util.Objects.equals(claimed, other.claimed);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(claimed);
    }

    @Override
    public String toString() {
        return claimed == null ? "every shard" : "shards " + named();
    }
}
