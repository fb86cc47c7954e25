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
        return evaluate(gates, throttles, adaptive, inFlight, nowMillis, wanted, 1);
    }

    /**
     * The gates' verdict in slots (issue 35, a job's cost: a job takes {@code cost} slots of every gate and
     * {@code cost} tokens of every throttle; with jobs of cost 1, slots are jobs).
     *
     * @param inFlight the slots the partition's admitted-but-unfinished jobs hold
     * @param wanted   slots the tick would fill if no gate objected
     * @param need     the slots of the partition's next job: a gate that allows fewer denies, as a gate
     *                 that allows none does (a throttle says when it will have that many tokens)
     */
    public static Evaluation evaluate(List<ResolvedGate> gates, Map<String, TokenBucket.State> throttles,
                                      Map<String, AdaptiveCap.State> adaptive, long inFlight, long nowMillis, int wanted,
                                      int need) {
        int admit = wanted;
        String reason = null;
        Duration retryAfter = null;
        Map<String, TokenBucket.State> refilled = new HashMap<>();
        java.util.Set<String> quotas = new java.util.HashSet<>();
        for (ResolvedGate gate : gates) {
            GateCheck check;
            if (gate instanceof ResolvedGate.Throttle t) {
                TokenBucket.State state = TokenBucket.refill(throttles.get(t.id()), t.rate(), t.perSeconds(), nowMillis);
                refilled.put(t.id(), state);
                check = TokenBucket.check(state, t.rate(), t.perSeconds(), need);
            } else if (gate instanceof ResolvedGate.Quota q) {
                TokenBucket.State state = CalendarQuota.current(throttles.get(q.id()), q.period(), q.zone(), nowMillis);
                refilled.put(q.id(), state);
                quotas.add(q.id());
                check = CalendarQuota.check(state, q.max(), q.period(), q.zone(), nowMillis, need);
            } else if (gate instanceof ResolvedGate.Concurrency c) {
                check = ConcurrencyCap.check(c.max(), inFlight, c.fullBackoff());
                if (!check.denied() && check.allowed() < need) {
                    check = GateCheck.deny(ConcurrencyCap.FULL, c.fullBackoff());
                }
            } else {
                ResolvedGate.Adaptive a = (ResolvedGate.Adaptive) gate;
                check = AdaptiveCap.check(adaptive.get(a.id()), a.params(), inFlight);
                if (!check.denied() && check.allowed() < need) {
                    check = GateCheck.deny(AdaptiveCap.FULL, AdaptiveCap.FULL_BACKOFF);
                }
            }
            admit = Math.min(admit, check.allowed());
            if (check.denied() && (retryAfter == null || check.retryAfter().compareTo(retryAfter) < 0)) {
                retryAfter = check.retryAfter();
                reason = check.reason();
            }
        }
        return new Evaluation(Math.max(0, admit), admit > 0 ? null : reason, admit > 0 ? null : retryAfter, refilled, quotas);
    }

    /**
     * @param admit      jobs that may be admitted now
     * @param reason     why none may, when {@code admit == 0} because of a gate (null when nothing was wanted)
     * @param retryAfter when to look again, with {@code reason}
     * @param refilled   the stored state of each throttle (its bucket) and quota (its period's count), as of now
     * @param quotas     which of {@code refilled} are quotas (charging counts up) rather than buckets (down)
     */
    public record Evaluation(int admit, String reason, Duration retryAfter, Map<String, TokenBucket.State> refilled,
                             java.util.Set<String> quotas) {

        /** The states after charging the admitted jobs' {@code tokens} (their costs' sum): what is stored. */
        public Map<String, TokenBucket.State> charged(int tokens) {
            Map<String, TokenBucket.State> charged = new HashMap<>();
            refilled.forEach((id, state) -> charged.put(id, quotas.contains(id) ? CalendarQuota.charge(state, tokens)
                    : TokenBucket.charge(state, tokens)));
            return charged;
        }
    }
}
