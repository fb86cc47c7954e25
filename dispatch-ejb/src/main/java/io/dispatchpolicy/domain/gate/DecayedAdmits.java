package io.dispatchpolicy.domain.gate;

/**
 * The EWMA of a partition's recent admits that orders partitions within a tick:
 * {@code decayed = decayed·exp(−Δt/τ) + admitted}, {@code τ = halfLife / ln 2}.
 */
public final class DecayedAdmits {

    /** Beyond this many time constants the value is zero for any practical count (e^-700 ≈ 1e-304). */
    private static final double NEGLIGIBLE = 700;

    private DecayedAdmits() {
    }

    /**
     * The value at {@code nowMillis}. Never underflows or fails, however long the partition idled (the
     * reference computed {@code exp} in SQL, which raises an underflow error after a long idle).
     */
    public static double at(double decayed, long atMillis, long nowMillis, double halfLifeSeconds) {
        if (decayed <= 0 || atMillis <= 0) {
            return 0;
        }
        double elapsed = Math.max(0, nowMillis - atMillis) / 1000.0;
        double constants = elapsed * Math.log(2) / halfLifeSeconds;
        return constants > NEGLIGIBLE ? 0 : decayed * Math.exp(-constants);
    }

    public static double add(double decayed, long atMillis, long nowMillis, double halfLifeSeconds, int admitted) {
        return at(decayed, atMillis, nowMillis, halfLifeSeconds) + admitted;
    }
}
