package io.dispatchpolicy.domain.gate;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a partition through its gates in declared order. The admit count is the smallest any gate
 * allows (and no more than wanted). Every gate is asked even after one denies, so that a denied
 * partition's retry-after is the smallest any denying gate asked for; asking changes nothing, since
 * tokens are charged only for what is actually admitted ({@link Evaluation#charged}).
 */
public final class GatePipeline {

    private GatePipeline() {
    }

    /**
     * @param throttles stored token buckets by gate id (missing = never used: full)
     * @param adaptive  stored adaptive states by gate id (missing = seeded at initialMax)
     * @param inFlight  the partition's admitted-but-unfinished jobs, counted under its row lock
     * @param wanted    jobs the tick would admit if no gate objected
     */
    public static Evaluation evaluate(List<ResolvedGate> gates, Map<String, TokenBucket.State> throttles,
                                      Map<String, AdaptiveCap.State> adaptive, long inFlight, long nowMillis, int wanted) {
        int admit = wanted;
        String reason = null;
        Duration retryAfter = null;
        Map<String, TokenBucket.State> refilled = new HashMap<>();
        for (ResolvedGate gate : gates) {
            GateCheck check;
            if (gate instanceof ResolvedGate.Throttle t) {
                TokenBucket.State state = TokenBucket.refill(throttles.get(t.id()), t.rate(), t.perSeconds(), nowMillis);
                refilled.put(t.id(), state);
                check = TokenBucket.check(state, t.rate(), t.perSeconds());
            } else if (gate instanceof ResolvedGate.Concurrency c) {
                check = ConcurrencyCap.check(c.max(), inFlight, c.fullBackoff());
            } else {
                ResolvedGate.Adaptive a = (ResolvedGate.Adaptive) gate;
                check = AdaptiveCap.check(adaptive.get(a.id()), a.params(), inFlight);
            }
            admit = Math.min(admit, check.allowed());
            if (check.denied() && (retryAfter == null || check.retryAfter().compareTo(retryAfter) < 0)) {
                retryAfter = check.retryAfter();
                reason = check.reason();
            }
        }
        return new Evaluation(Math.max(0, admit), admit > 0 ? null : reason, admit > 0 ? null : retryAfter, refilled);
    }

    /**
     * @param admit      jobs that may be admitted now
     * @param reason     why none may, when {@code admit == 0} because of a gate (null when nothing was wanted)
     * @param retryAfter when to look again, with {@code reason}
     */
    public record Evaluation(int admit, String reason, Duration retryAfter, Map<String, TokenBucket.State> refilled) {

        /** The token buckets after charging {@code admitted} jobs: what is stored. */
        public Map<String, TokenBucket.State> charged(int admitted) {
            Map<String, TokenBucket.State> charged = new HashMap<>();
            refilled.forEach((id, state) -> charged.put(id, TokenBucket.charge(state, admitted)));
            return charged;
        }
    }
}
