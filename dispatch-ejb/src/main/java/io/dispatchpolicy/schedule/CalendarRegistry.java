package io.dispatchpolicy.schedule;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.schedule.ExclusionCalendar;
import io.dispatchpolicy.domain.schedule.StoredSchedule;
import io.dispatchpolicy.spi.Calendar;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The calendars this deployment declares (ADR 0053): CDI producers of {@link Calendar} and {@code dispatch.calendar.<name>.*}
 * in standalone.xml, whose fields replace a code declaration's of the same name. The watchdog writes them to the database
 * (where console-created calendars live too) before it applies schedule declarations, which may name them.
 */
@ApplicationScoped
public class CalendarRegistry {

    @Inject
    @Any
    Instance<Calendar> declared;

    @Inject
    DispatchSettings settings;

    /** A calendar as declared now, where, and the fingerprint of that declaration. */
    public record Declared(ExclusionCalendar calendar, String source, String hash) {
    }

    /**
     * Every declared calendar, by name, checked.
     *
     * @throws ScheduleDeclarationException naming the calendar and what is wrong
     * @throws io.dispatchpolicy.config.InvalidSettingException     for a property that names no calendar field
     */
    public Map<String, Declared> declared() {
        Map<String, ExclusionCalendar> code = new LinkedHashMap<>();
        for (Calendar c : declared) {
            ExclusionCalendar e = ExclusionCalendar.of(c);
            if (code.putIfAbsent(e.name(), e) != null) {
                throw new ScheduleDeclarationException("Two calendars are named '" + e.name() + "'");
            }
        }
        Map<String, Map<String, String>> properties = properties();
        Map<String, Declared> result = new TreeMap<>();
        java.util.Set<String> names = new java.util.TreeSet<>(code.keySet());
        names.addAll(properties.keySet());
        for (String name : names) {
            ExclusionCalendar c = code.get(name);
            Map<String, String> p = properties.get(name);
            if (p != null) {
                Map<String, String> fields = new HashMap<>(c == null ? Map.of() : c.text());
                fields.putAll(p);
                c = ExclusionCalendar.parse(name, fields);
            }
            result.put(name, new Declared(c, code.containsKey(name) ? StoredSchedule.CODE : StoredSchedule.CONFIG, hash(c)));
        }
        return result;
    }

    /** Fails the deployment on an invalid declaration or property, naming it. */
    public void validateSettings() {
        declared();
    }

    private Map<String, Map<String, String>> properties() {
        return settings.byName(DispatchSettings.CALENDAR_PREFIX, ExclusionCalendar.FIELDS::contains,
                "dispatch.calendar.<name>.<field> with a field among " + ExclusionCalendar.FIELDS);
    }

    static String hash(ExclusionCalendar c) {
        return ScheduleRegistry.fingerprint(c.text().toString());
    }
}
