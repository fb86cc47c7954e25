package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.console.schedule.ScheduleDetail;
import io.dispatchpolicy.console.schedule.ScheduleSummary;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;

/**
 * Recurring schedules for scripts, as the Schedules view and its form offer them. A schedule is the same JSON
 * read and written: {@code name}, {@code job}, {@code parameters}, one of {@code cron}, {@code anchor} (a local
 * date-time in {@code zone}, or an instant) with {@code interval} and {@code unit}, or {@code delay} (seconds after each
 * run ended, ADR 0054), {@code zone}, {@code calendar} and {@code excluded} ({@code skip} or {@code move}, ADR 0053),
 * {@code priority},
 * {@code lane}, {@code catchUp}, {@code enabled}, {@code deadline} (seconds). Creating, editing, deleting, enabling,
 * disabling and skipping need dispatch-admin, running now dispatch-operator; each is audited. Only schedules
 * created here or in the console are edited or deleted here (409 for one declared in code or standalone.xml).
 */
@Path("/schedules")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SchedulesResource {

    private static final Set<String> FIELDS = Set.of("name", "job", "parameters", "cron", "anchor", "interval", "unit", "zone",
            "priority", "lane", "catchUp", "enabled", "deadline", "delay", "calendar", "excluded");

    @Inject
    @Engine
    ScheduleControl control;

    @Context
    SecurityContext security;

    @Context
    UriInfo uri;

    /** Every schedule, by name, with its next run times and where it is declared ({@code source}). */
    @GET
    public String list() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        for (ScheduleSummary s : control.schedules()) {
            all.add(summary(s));
        }
        JsonObjectBuilder answer = Json.createObjectBuilder().add("schedules", all);
        control.declarationProblem().ifPresent(p -> answer.add("declarationProblem", p));
        return answer.build().toString();
    }

    /** One schedule's definition, as it is written back, with its next run times. */
    @GET
    @Path("{name}")
    public String read(@PathParam("name") String name) {
        ScheduleDetail detail = existing(name);
        return write(detail.definition(), summary(detail.summary())).build().toString();
    }

    /** A new schedule (201 with its location); enabled, its first occurrence is staged at once. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonObject json) {
        JsonBody body = JsonBody.of(json, FIELDS);
        String name = body.text("name");
        if (name == null || name.isBlank()) {
            throw Problem.badField("name", "name is required: 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
        }
        if (control.schedule(name).isPresent()) {
            throw Problem.of(Response.Status.CONFLICT, "name", "A schedule named " + name + " exists already: PUT /schedules/" + name + " edits it");
        }
        ScheduleDefinition definition = definition(name, body);
        control.create(definition, ApiActor.of(security));
        return Response.created(uri.getBaseUriBuilder().path("schedules").path(name).build()).entity(read(name)).build();
    }

    /** Replaces the schedule's definition (every field; absent ones take their defaults); a new version when runs change. */
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public String edit(@PathParam("name") String name, JsonObject json) {
        JsonBody body = JsonBody.of(json, FIELDS);
        String named = body.text("name");
        if (named != null && !named.equals(name)) {
            throw Problem.badField("name", "name '" + named + "' differs from the path's '" + name + "': a schedule is not renamed");
        }
        existing(name);
        control.edit(name, definition(name, body), ApiActor.of(security));
        return read(name);
    }

    /** Deletes a schedule created here or in the console, and its future occurrence; past executions stay. */
    @DELETE
    @Path("{name}")
    public String delete(@PathParam("name") String name) {
        existing(name);
        control.delete(name, ApiActor.of(security));
        return Json.createObjectBuilder().add("deleted", name).build().toString();
    }

    @POST
    @Path("{name}/enable")
    public String enable(@PathParam("name") String name) {
        existing(name);
        boolean staged = control.enable(name, ApiActor.of(security));
        return Json.createObjectBuilder().add("schedule", name).add("enabled", true).add("staged", staged).build().toString();
    }

    @POST
    @Path("{name}/disable")
    public String disable(@PathParam("name") String name) {
        existing(name);
        boolean was = control.disable(name, ApiActor.of(security));
        return Json.createObjectBuilder().add("schedule", name).add("enabled", false).add("wasEnabled", was).build().toString();
    }

    /** Skips the next occurrence; the one after it is staged. {@code skipped}: its run time, or null when none was due. */
    @POST
    @Path("{name}/skip")
    public String skip(@PathParam("name") String name) {
        existing(name);
        var answer = Json.createObjectBuilder().add("schedule", name);
        control.skipNext(name, ApiActor.of(security)).ifPresentOrElse(at -> answer.add("skipped", at.toString()), () -> answer.addNull("skipped"));
        return answer.build().toString();
    }

    /** An extra run due now, outside the grid: {@code {"id": its submission id}}. */
    @POST
    @Path("{name}/run")
    public Response run(@PathParam("name") String name) {
        existing(name);
        long id = control.runNow(name, ApiActor.of(security));
        return Response.status(Response.Status.CREATED).location(uri.getBaseUriBuilder().path("jobs").path(Long.toString(id)).build())
                .entity(Json.createObjectBuilder().add("schedule", name).add("id", id).build().toString()).build();
    }

    private ScheduleDetail existing(String name) {
        return control.schedule(name).orElseThrow(() -> Problem.notFound("There is no schedule named " + name + " (any more)"));
    }

    /** The body as a definition; a field that cannot be read is refused naming it (the engine then checks the whole). */
    static ScheduleDefinition definition(String name, JsonBody body) {
        ZoneId zone;
        try {
            zone = ScheduleDefinition.parseZone(name, body.text("zone"));
        } catch (ScheduleDeclarationException e) {
            throw Problem.badField("zone", e.getMessage());
        }
        ScheduleUnit unit = null;
        if (body.has("unit")) {
            try {
                unit = ScheduleDefinition.parseUnit(name, body.text("unit"));
            } catch (ScheduleDeclarationException e) {
                throw Problem.badField("unit", e.getMessage());
            }
        }
        Integer deadline = body.integer("deadline");
        Integer delay = body.integer("delay");
        io.dispatchpolicy.spi.Excluded excluded = null;
        if (body.has("excluded")) {
            try {
                excluded = io.dispatchpolicy.spi.Excluded.parse(name, body.text("excluded"));
            } catch (ScheduleDeclarationException e) {
                throw Problem.badField("excluded", e.getMessage());
            }
        }
        Boolean catchUp = body.bool("catchUp");
        Boolean enabled = body.bool("enabled");
        try {
            return new ScheduleDefinition(name, body.text("job"), body.strings("parameters"), anchor(name, body.text("anchor"), zone),
                    body.integer("interval"), unit, body.text("cron"), zone, body.integer("priority"), body.text("lane"),
                    catchUp != null && catchUp, enabled == null || enabled, null,
                    deadline == null ? null : java.time.Duration.ofSeconds(deadline),
                    delay == null ? null : java.time.Duration.ofSeconds(delay), body.text("calendar"), excluded).validate();
        } catch (ScheduleDeclarationException e) {
            throw Problem.badField(apiField(e.field()), e.getMessage());
        }
    }

    private static Instant anchor(String name, String text, ZoneId zone) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text.strip()).toInstant();
        } catch (DateTimeParseException notAnInstant) {
            try {
                return ScheduleDefinition.anchorAt(name, LocalDateTime.parse(text.strip()), zone);
            } catch (DateTimeParseException e) {
                throw Problem.badField("anchor", "anchor: '" + text + "' is neither a local date-time in the schedule's zone "
                        + "(2026-12-01T08:00) nor an instant (2026-12-01T08:00:00Z)");
            } catch (ScheduleDeclarationException e) {
                throw Problem.badField("anchor", e.getMessage());
            }
        }
    }

    /** The engine's field names are standalone.xml's knobs; the API's are camel case. */
    static String apiField(String field) {
        return field == null ? null : switch (field) {
            case "catch-up" -> "catchUp";
            case "run-as" -> "runAs";
            default -> field;
        };
    }

    private static JsonObjectBuilder summary(ScheduleSummary s) {
        JsonArrayBuilder next = Json.createArrayBuilder();
        s.nextRuns().forEach(at -> next.add(at.toString()));
        return Json.createObjectBuilder().add("name", s.name()).add("source", s.source()).add("job", s.jobName()).add("when", s.when())
                .add("zone", s.zone()).add("enabled", s.enabled()).add("catchUp", s.catchUp()).add("nextRuns", next);
    }

    private static JsonObjectBuilder write(ScheduleDefinition d, JsonObjectBuilder summary) {
        JsonObjectBuilder params = Json.createObjectBuilder();
        d.parameters().forEach(params::add);
        JsonObjectBuilder o = summary.add("parameters", params);
        if (d.isCron()) {
            o.add("cron", d.cron());
        } else if (d.isFixedDelay()) {
            o.add("delay", d.delay().toSeconds());
        } else {
            o.add("anchor", LocalDateTime.ofInstant(d.anchor(), d.zone()).toString()).add("interval", d.intervalCount())
                    .add("unit", d.unit().label());
        }
        if (d.priority() != null) {
            o.add("priority", d.priority());
        }
        if (d.lane() != null) {
            o.add("lane", d.lane());
        }
        if (d.deadline() != null) {
            o.add("deadline", d.deadline().toSeconds());
        }
        if (d.calendar() != null) {
            o.add("calendar", d.calendar()).add("excluded", d.excluded().label());
        }
        if (d.runAs() != null) {
            o.add("runAs", d.runAs());
        }
        return o;
    }

}
