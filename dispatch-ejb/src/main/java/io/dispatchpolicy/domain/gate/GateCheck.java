package io.dispatchpolicy.domain.gate;

import java.time.Duration;

/**
 * One gate's answer for one partition: how many jobs it allows now and, when that is none, why and
 * when to ask again.
 *
 * @param allowed    jobs this gate lets through now (0 = denied)
 * @param reason     denial reason when {@code allowed == 0}, else null
 * @param retryAfter when a denied partition should be checked again, else null
 */
public record GateCheck(int allowed, String reason, Duration retryAfter) {

    public static GateCheck allow(long allowed) {
        return new GateCheck((int) Math.max(0, Math.min(Integer.MAX_VALUE, allowed)), null, null);
    }

    public static GateCheck deny(String reason, Duration retryAfter) {
        return new GateCheck(0, reason, retryAfter);
    }

    public boolean denied() {
        return allowed == 0;
    }
}
