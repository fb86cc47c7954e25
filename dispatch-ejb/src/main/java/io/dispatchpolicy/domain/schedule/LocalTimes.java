package io.dispatchpolicy.domain.schedule;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

/**
 * The one rule by which a schedule's local time becomes an instant, shared by anchored and cron schedules so
 * both behave alike across DST changes (ADR 0012).
 */
public final class LocalTimes {

    private LocalTimes() {
    }

    /**
     * The instant a local date-time runs at in {@code zone}.
     * <ul>
     * <li>A time the zone skips (in a spring-forward gap) runs at the first instant after the gap, the
     * transition itself: 02:30 on Berlin's spring-forward day runs at 03:00 CEST. java.time would shift it by
     * the gap's length (03:30), which for a "02:30" schedule is neither the time asked for nor the first
     * possible one.</li>
     * <li>A time the zone repeats (in a fall-back overlap) runs once, at the earlier offset: 02:30 CEST, not
     * again at 02:30 CET.</li>
     * </ul>
     * The result never decreases as {@code local} increases, which grids rely on.
     */
    public static Instant resolve(LocalDateTime local, ZoneId zone) {
        ZoneRules rules = zone.getRules();
        List<ZoneOffset> offsets = rules.getValidOffsets(local);
        if (offsets.size() == 1) {
            return local.toInstant(offsets.get(0));
        }
        ZoneOffsetTransition transition = rules.getTransition(local);
        // in an overlap the offset before the transition is the larger one, so it gives the earlier instant
        return offsets.isEmpty() ? transition.getInstant() : local.toInstant(transition.getOffsetBefore());
    }

    /** True when {@code zone} skips {@code local}: it lies in a spring-forward gap. */
    public static boolean isSkipped(LocalDateTime local, ZoneId zone) {
        return zone.getRules().getValidOffsets(local).isEmpty();
    }
}
