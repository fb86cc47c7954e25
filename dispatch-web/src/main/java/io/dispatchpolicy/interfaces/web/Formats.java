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

    private static final java.util.regex.Pattern RELATIVE = java.util.regex.Pattern.compile("\\+(\\d{1,9})\\s*([smhd])");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm[:ss]");

    /**
     * When an override ends, as an operator writes it: blank for "until cleared", {@code +30m} / {@code +2h} /
     * {@code +1d} / {@code +90s} from now, an ISO-8601 instant ({@code 2026-11-27T15:00:00Z}), or
     * {@code yyyy-MM-dd HH:mm} in the server's zone (the zone the console shows times in).
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static Instant parseUntil(String text, Instant now) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String t = text.strip();
        java.util.regex.Matcher m = RELATIVE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return now.plus(switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            });
        }
        try {
            return Instant.parse(t);
        } catch (java.time.format.DateTimeParseException notAnInstant) {
            try {
                return java.time.LocalDateTime.parse(t, LOCAL).atZone(ZoneId.systemDefault()).toInstant();
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException("'" + t + "' is not a time: write +30m, +2h, +1d, "
                        + "an instant such as 2026-11-27T15:00:00Z, or yyyy-MM-dd HH:mm (server time)");
            }
        }
    }

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
