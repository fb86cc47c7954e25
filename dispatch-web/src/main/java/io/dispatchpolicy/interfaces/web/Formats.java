package io.dispatchpolicy.interfaces.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console shows numbers and instants. */
@Named
@ApplicationScoped
public class Formats {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    public String time(Instant instant) {
        return instant == null ? "-" : TIME.format(instant);
    }

    /** "in 12 s" or "3 min ago". */
    public String relative(Instant instant) {
        if (instant == null) {
            return "-";
        }
        long s = Duration.between(Instant.now(), instant).toSeconds();
        return s >= 0 ? "in " + span(s) : span(-s) + " ago";
    }

    private static String span(long seconds) {
        if (seconds < 120) {
            return seconds + " s";
        }
        if (seconds < 7200) {
            return seconds / 60 + " min";
        }
        return seconds / 3600 + " h";
    }

    public String rate(double perSecond) {
        return String.format(Locale.ROOT, "%.1f/s", perSecond);
    }

    /** A ratio as a whole percentage; "-" for none. */
    public String percent(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    public String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }

    public String minutes(Double minutes) {
        return minutes == null ? "-" : minutes < 1 ? "< 1 min" : Math.round(minutes) + " min";
    }
}
