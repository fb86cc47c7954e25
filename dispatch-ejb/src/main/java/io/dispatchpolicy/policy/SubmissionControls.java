package io.dispatchpolicy.policy;

import io.dispatchpolicy.spi.BacklogCap;
import io.dispatchpolicy.spi.Debounce;
import io.dispatchpolicy.spi.KeyFunction;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Uniqueness;

import java.time.Duration;
import java.util.Optional;

/**
 * A policy's submission controls in force (ADR 0036): its declaration's with standalone.xml's over them, read
 * once per submission call ({@link PolicySettings#controls}).
 *
 * @param uniqueBy    the uniqueness key of a job, from its parameters; null for none
 * @param uniqueness  what the key covers; null without {@code uniqueBy}
 * @param expireAfter how long a job may wait once due; null for ever
 * @param debounceBy  the debounce key of a job; null for none
 * @param debounce    its period and longest wait; null without {@code debounceBy}
 * @param backlogCap  the most staged per partition; null for no cap
 */
public record SubmissionControls(KeyFunction uniqueBy, Uniqueness uniqueness, Duration expireAfter, KeyFunction debounceBy,
                                 Debounce debounce, BacklogCap backlogCap) {

    /** What the policy declares, without standalone.xml. */
    public static SubmissionControls declared(Policy p) {
        return new SubmissionControls(p.uniqueBy(), p.uniqueness(), p.expireAfter().orElse(null), p.debounceBy(), p.debounce(),
                p.backlogCap().orElse(null));
    }

    public Optional<BacklogCap> cap() {
        return Optional.ofNullable(backlogCap);
    }
}
