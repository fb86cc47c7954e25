package io.dispatchpolicy.config;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A live setting read on the hot path that must never stop the engine: a value that does not parse is
 * reported once and the last valid one is kept. Once the setting reads valid again, the next bad value
 * is reported again — even the same typo written a second time.
 *
 * @param <T> the setting's parsed value
 */
public final class LastValid<T> {

    private volatile T last;
    private volatile String reported;

    public LastValid(T initial) {
        this.last = initial;
    }

    /** The setting as {@code reader} reads it now, or, when that throws, the last valid value. */
    public T read(Supplier<T> reader, Consumer<InvalidSettingException> report) {
        try {
            T now = reader.get();
            // written only on a change: read on every tick iteration by every worker, a value that stays
            // put should not make each of them write the shared fields
            if (!now.equals(last)) {
                last = now;
            }
            if (reported != null) {
                reported = null;
            }
            return now;
        } catch (InvalidSettingException e) {
            if (!e.getMessage().equals(reported)) {
                reported = e.getMessage();
                report.accept(e);
            }
            return last;
        }
    }

    /** The last valid value read (the initial one until a read succeeds). */
    public T last() {
        return last;
    }
}
