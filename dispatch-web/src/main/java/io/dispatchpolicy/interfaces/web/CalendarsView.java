package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.schedule.CalendarSummary;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Calendars page (ADR 0053): every calendar of excluded times with the schedules naming it; an admin creates, edits
 * and deletes the console's own (declared ones are changed in code or standalone.xml). The engine checks the role and
 * audits every attempt.
 */
@Named
@ViewScoped
public class CalendarsView implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    @Engine
    transient ScheduleControl control;

    @Inject
    ConsoleUser user;

    private transient List<CalendarSummary> calendars;
    private String name;
    private String zone = "UTC";
    private String dates;
    private String yearly;
    private String days;
    private String windows;

    public List<CalendarSummary> getCalendars() {
        if (calendars == null) {
            calendars = control.calendars();
        }
        return calendars;
    }

    /** Fills the form with a console calendar, to change it. */
    public void edit(CalendarSummary c) {
        name = c.name();
        zone = c.fields().get("zone");
        dates = c.fields().get("dates");
        yearly = c.fields().get("yearly");
        days = c.fields().get("days");
        windows = c.fields().get("windows");
    }

    public void save() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("zone", zone == null ? "" : zone);
        fields.put("dates", dates == null ? "" : dates);
        fields.put("yearly", yearly == null ? "" : yearly);
        fields.put("days", days == null ? "" : days);
        fields.put("windows", windows == null ? "" : windows);
        String n = name == null ? "" : name.strip();
        try {
            if (user.act(() -> {
                control.saveCalendar(n, fields, user.getActor());
                return true;
            })) {
                ConsoleUser.info("Calendar " + n + " saved; the schedules naming it run by it from their next run.");
            }
        } catch (ScheduleActionRefused | ScheduleDeclarationException e) {
            ConsoleUser.error(e.getMessage());
        }
        calendars = null;
    }

    public void delete(String calendar) {
        try {
            if (user.act(() -> {
                control.deleteCalendar(calendar, user.getActor());
                return true;
            })) {
                ConsoleUser.info("Calendar " + calendar + " deleted.");
            }
        } catch (ScheduleActionRefused e) {
            ConsoleUser.error(e.getMessage());
        }
        calendars = null;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getZone() {
        return zone;
    }

    public void setZone(String zone) {
        this.zone = zone;
    }

    public String getDates() {
        return dates;
    }

    public void setDates(String dates) {
        this.dates = dates;
    }

    public String getYearly() {
        return yearly;
    }

    public void setYearly(String yearly) {
        this.yearly = yearly;
    }

    public String getDays() {
        return days;
    }

    public void setDays(String days) {
        this.days = days;
    }

    public String getWindows() {
        return windows;
    }

    public void setWindows(String windows) {
        this.windows = windows;
    }
}
