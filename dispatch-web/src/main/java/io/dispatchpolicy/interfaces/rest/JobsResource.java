package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobLife;
import io.dispatchpolicy.console.jobs.JobQuery;
import io.dispatchpolicy.console.jobs.JobRow;
import io.dispatchpolicy.console.jobs.SubmitRequest;
import io.dispatchpolicy.console.jobs.SubmittedJob;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.spi.Uniqueness;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Jobs for scripts (the guide, "The API"): find them and read their lives as the Jobs view does; submit them
 * through their policy with every {@code SubmitOption}, one or a bulk call; stop, restart, discard, retry.
 * Reads need a console account, writes dispatch-operator (403 otherwise), and every write is audited.
 * <pre>
 * curl -u operator:pw -H 'Content-Type: application/json' -H 'Idempotency-Key: order-77' \
 *      -d '{"job":"reports","parameters":{"tenant":"acme"},"priority":5,"delay":"PT10M"}' http://host:8080/dispatch/api/jobs
 * </pre>
 */
@Path("/jobs")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** How long an {@code Idempotency-Key} holds after its job completed: a day, as payment APIs keep theirs. */
    static final Duration IDEMPOTENCY_WINDOW = Duration.ofHours(24);
    /** The prefix an {@code Idempotency-Key} gets as a uniqueness key, apart from the keys applications choose. */
    static final String IDEMPOTENCY_PREFIX = "idempotency-key:";

    private static final Set<String> SUBMIT_FIELDS = Set.of("job", "parameters", "priority", "priorityOffset", "delay", "at", "lane", "cost", "timeout",
            "progressTimeout", "unique", "deadline", "expireAfter", "debounce", "then");

    /** A continuation's fields (ADR 0051): a submission's, of one job, and on which end of its predecessor. */
    private static final Set<String> THEN_FIELDS = Set.of("on", "job", "parameters", "priority", "priorityOffset", "delay", "at", "lane", "cost",
            "timeout", "progressTimeout", "unique", "deadline", "expireAfter", "debounce", "then");

    @Inject
    @Engine
    JobControl jobs;

    @Inject
    @Engine
    DeadJobControl dead;

    @Context
    SecurityContext security;

    @Context
    UriInfo uri;

    /** A page of jobs, newest submission first; the next page is {@code before=<the last id>}. */
    @GET
    public List<JobRow> find(@QueryParam("by") String by, @QueryParam("value") String value, @QueryParam("policy") String policy,
                             @QueryParam("before") @DefaultValue("0") long before, @QueryParam("limit") @DefaultValue("50") int limit) {
        return jobs.find(new JobQuery(JobQuery.by(by), value, policy, before, limit));
    }

    /** How many jobs each list by state holds now: {@code {"staged", "running", "failed", "dead"}} (failed: in the last hour). */
    @GET
    @Path("states")
    public java.util.Map<String, Long> states() {
        return jobs.stateCounts();
    }

    /** One job's whole life; 404 when there is no such job (any more). */
    @GET
    @Path("{id: [0-9]+}")
    public JobLife life(@PathParam("id") long id) {
        return existing(id);
    }

    /**
     * Submits one job ({@code "parameters": {…}}) or several of the same job XML ({@code "parameters": [{…}, …]},
     * at most {@value SubmitRequest#MAX_JOBS}, all or nothing) through its policy, as the caller. 201 when a job was
     * staged (or, ungoverned, started), 200 when each was a duplicate or debounced into a staged one — the body lists
     * each job's id and outcome either way. {@code Idempotency-Key} makes a retry of a single job's call safe: the
     * same key within a day of its job's completion answers the first call's id and stages nothing.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(JsonObject json, @HeaderParam("Idempotency-Key") String idempotencyKey) {
        JsonBody body = JsonBody.of(json, SUBMIT_FIELDS);
        String job = body.text("job");
        if (job == null || job.isBlank()) {
            throw Problem.badField("job", "job is required: the job XML name to start");
        }
        List<Map<String, String>> parameters = parameters(body);
        JsonBody unique = body.object("unique", Set.of("key", "window", "covers"));
        JsonBody debounce = body.object("debounce", Set.of("key", "period", "maxWait"));
        String uniqueKey = unique == null ? null : unique.text("key");
        Duration window = unique == null ? null : unique.duration("window");
        Set<Uniqueness.State> covers = unique == null ? null : covers(unique);
        if (idempotencyKey != null) {
            if (idempotencyKey.isBlank() || idempotencyKey.length() > 255) {
                throw Problem.badField("Idempotency-Key", "Idempotency-Key must be 1 to 255 characters");
            }
            if (unique != null || debounce != null) {
                throw Problem.badField("Idempotency-Key", "Idempotency-Key is a uniqueness key of its own: leave out unique and debounce with it");
            }
            if (parameters.size() > 1) {
                throw Problem.badField("Idempotency-Key", "Idempotency-Key keys a single job's submission; a bulk call's jobs are "
                        + "made unique by their policy's uniqueness (from their parameters) or one call each");
            }
            uniqueKey = IDEMPOTENCY_PREFIX + idempotencyKey;
            window = IDEMPOTENCY_WINDOW;
        }
        SubmitRequest request = request(body, job, parameters, uniqueKey, window, covers, debounce);
        if (request.uniqueKey() == null && (request.uniqueWindow() != null || request.uniqueCovers() != null)) {
            throw Problem.badField("unique.key", "unique.key is required with unique");
        }
        List<SubmittedJob> submitted = jobs.submit(request, ApiActor.of(security));
        var list = Json.createArrayBuilder();
        var counts = new java.util.TreeMap<String, Integer>();
        for (SubmittedJob s : submitted) {
            list.add(Json.createObjectBuilder().add("id", s.id()).add("outcome", s.outcome()));
            counts.merge(s.outcome().toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        var answer = Json.createObjectBuilder().add("jobs", list);
        for (String outcome : List.of("staged", "duplicate", "debounced", "started")) {
            answer.add(outcome, counts.getOrDefault(outcome, 0));
        }
        boolean created = counts.containsKey("staged") || counts.containsKey("started");
        Response.ResponseBuilder response = Response.status(created ? Response.Status.CREATED : Response.Status.OK)
                .entity(answer.build().toString());
        if (submitted.size() == 1) {
            response.location(uri.getBaseUriBuilder().path("jobs").path(Long.toString(submitted.get(0).id())).build());
        }
        return response.build();
    }

    private static SubmitRequest request(JsonBody body, String job, List<Map<String, String>> parameters, String uniqueKey, Duration window,
                                         Set<Uniqueness.State> covers, JsonBody debounce) {
        List<SubmitRequest.Then> then = new ArrayList<>();
        for (JsonBody c : body.objects("then", THEN_FIELDS)) {
            JsonBody unique = c.object("unique", Set.of("key", "window", "covers"));
            JsonValue own = c.raw("parameters");
            then.add(new SubmitRequest.Then(c.text("on"), request(c, c.text("job"),
                    List.of(own == null ? Map.of() : JsonBody.strings(c.name("parameters"), own)),
                    unique == null ? null : unique.text("key"), unique == null ? null : unique.duration("window"),
                    unique == null ? null : covers(unique), c.object("debounce", Set.of("key", "period", "maxWait")))));
        }
        return new SubmitRequest(job, parameters, body.integer("priority"), body.duration("delay"), body.instant("at"),
                body.text("lane"), body.integer("cost"), body.duration("timeout"), body.duration("progressTimeout"),
                uniqueKey, window, covers, body.instant("deadline"), body.duration("expireAfter"),
                debounce == null ? null : debounce.text("key"), debounce == null ? null : debounce.duration("period"),
                debounce == null ? null : debounce.duration("maxWait"), body.duration("priorityOffset"), then);
    }

    private static List<Map<String, String>> parameters(JsonBody body) {
        JsonValue raw = body.raw("parameters");
        if (raw == null) {
            return List.of(Map.of());
        }
        if (raw instanceof JsonArray array) {
            if (array.isEmpty()) {
                throw Problem.badField("parameters", "parameters is an empty list: give one object per job");
            }
            if (array.size() > SubmitRequest.MAX_JOBS) {
                throw Problem.badField("parameters", "one call submits at most " + SubmitRequest.MAX_JOBS + " jobs, this one "
                        + array.size() + ": split it (each call is atomic)");
            }
            List<Map<String, String>> all = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                all.add(JsonBody.strings("parameters[" + i + "]", array.get(i)));
            }
            return all;
        }
        return List.of(JsonBody.strings("parameters", raw));
    }

    private static Set<Uniqueness.State> covers(JsonBody unique) {
        JsonValue raw = unique.raw("covers");
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof JsonArray array)) {
            throw Problem.badField("unique.covers", "unique.covers must be a list of states: " + EnumSet.allOf(Uniqueness.State.class));
        }
        Set<Uniqueness.State> states = EnumSet.noneOf(Uniqueness.State.class);
        for (JsonValue v : array) {
            try {
                states.add(Uniqueness.State.valueOf(((JsonString) v).getString().strip().toUpperCase(Locale.ROOT)));
            } catch (ClassCastException | IllegalArgumentException e) {
                throw Problem.badField("unique.covers", "unique.covers: " + v + " is not one of " + EnumSet.allOf(Uniqueness.State.class));
            }
        }
        return states;
    }

    /**
     * Stops the job's running execution, whatever node runs it (ADR 0031): {@code {"message": …}} saying where it
     * runs; the job's page ({@code GET}) then shows the request and when its node delivered it. 409 when nothing of
     * it runs.
     */
    @POST
    @Path("{id: [0-9]+}/stop")
    public Response stop(@PathParam("id") long id) {
        return act(id, JobLife::stoppable, "has no running execution to stop", () -> jobs.stop(id, ApiActor.of(security)));
    }

    /** Restarts the job's FAILED or STOPPED latest execution through its policy (a dead job: staged again); 409 otherwise. */
    @POST
    @Path("{id: [0-9]+}/restart")
    public Response restart(@PathParam("id") long id) {
        return act(id, JobLife::restartable, "cannot be restarted: only a job whose latest execution FAILED or was STOPPED, "
                + "with nothing staged for it, can", () -> jobs.restart(id, ApiActor.of(security)));
    }

    /** Discards a staged (waiting, scheduled, parked) or dead job; 409 for a job in any other state. */
    @POST
    @Path("{id: [0-9]+}/discard")
    public Response discard(@PathParam("id") long id) {
        return act(id, JobLife::discardable, "is neither staged nor dead: only those can be discarded (stop a running one)",
                () -> jobs.discard(id, ApiActor.of(security)));
    }

    /** Retries a dead job now, through its policy, as the Dead view does; 409 when the job is not dead. */
    @POST
    @Path("{id: [0-9]+}/retry")
    public Response retry(@PathParam("id") long id) {
        return act(id, life -> "DEAD".equals(life.job().state()), "is not dead: only a dead job is retried (restart a failed one)",
                () -> dead.retryNow(List.of(id), ApiActor.of(security)) == 1 ? "Dead job " + id + " is staged again through its policy."
                        : "Job " + id + " is no longer dead.");
    }

    private Response act(long id, Predicate<JobLife> applies, String otherwise, java.util.function.Supplier<String> action) {
        JobLife life = existing(id);
        if (!applies.test(life)) {
            throw Problem.of(Response.Status.CONFLICT, null, "Job " + id + " (" + life.job().state() + ") " + otherwise);
        }
        return Response.ok(Json.createObjectBuilder().add("message", action.get()).build().toString()).build();
    }

    private JobLife existing(long id) {
        return jobs.life(id).orElseThrow(() -> Problem.notFound("No job " + id + " (never submitted, or forgotten after its retention)"));
    }
}
