package io.dispatchpolicy.faults.check;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How many intervals were open at once, by a sweep over their start and end events. An interval ends
 * before another starting at the same instant begins: JBeret's timestamps are milliseconds, and a slot
 * freed and taken within one millisecond is not two jobs at once.
 */
final class Overlaps {

    record Interval(Instant start, Instant end, Execution execution) {
    }

    /** The largest number of intervals open at once, and the instant it was first reached. */
    record Peak(int count, Instant at) {
    }

    private Overlaps() {
    }

    static Peak peak(List<Interval> intervals) {
        record Event(Instant at, int delta) {
        }
        List<Event> events = new ArrayList<>();
        for (Interval i : intervals) {
            events.add(new Event(i.start(), +1));
            events.add(new Event(i.end(), -1));
        }
        events.sort(Comparator.comparing(Event::at).thenComparingInt(Event::delta));
        int open = 0;
        Peak peak = new Peak(0, null);
        for (Event e : events) {
            open += e.delta();
            if (open > peak.count()) {
                peak = new Peak(open, e.at());
            }
        }
        return peak;
    }

    /** Pairs of intervals that overlap (each with the one before it in start order that is still open). */
    static List<String> overlapping(List<Interval> intervals) {
        List<Interval> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparing(Interval::start));
        List<String> overlaps = new ArrayList<>();
        Interval latest = null;
        for (Interval i : sorted) {
            if (latest != null && i.start().isBefore(latest.end())) {
                overlaps.add(latest.execution() + " overlaps " + i.execution());
            }
            if (latest == null || i.end().isAfter(latest.end())) {
                latest = i;
            }
        }
        return overlaps;
    }
}
