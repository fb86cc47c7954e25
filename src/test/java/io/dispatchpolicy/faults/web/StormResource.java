package io.dispatchpolicy.faults.web;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.app.StormSubmitter;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.stream.Collectors;

/** Storm submission over HTTP, so the test JVM drives the server as an operator's client would. */
@Path("/")
@RequestScoped
public class StormResource {

    @Inject
    StormSubmitter submitter;

    @Inject
    DispatchOperator dispatch;

    @jakarta.annotation.Resource
    jakarta.enterprise.concurrent.ManagedExecutorService executor;

    /** Answers once the application is deployed: what the harness polls after (re)starting WildFly. */
    @GET
    @Path("ping")
    @Produces(MediaType.TEXT_PLAIN)
    public String ping() {
        return "up";
    }

    /**
     * {@code POST /fault/submit?count=N&tenants=T&sleepMs=S&first=F&job=J} (S may be MIN-MAX; storm
     * indexes from F; J one of the storm jobs, {@code fault-job} by default): the ids, one a line.
     */
    @POST
    @Path("submit")
    @Produces(MediaType.TEXT_PLAIN)
    public String submit(@QueryParam("count") int count,
                         @QueryParam("tenants") @DefaultValue("20") int tenants,
                         @QueryParam("sleepMs") @DefaultValue("100") String sleepMs,
                         @QueryParam("first") @DefaultValue("0") int first,
                         @QueryParam("job") @DefaultValue(FaultPolicies.JOB) String job) {
        if (count <= 0 || tenants <= 0 || first < 0) {
            throw new jakarta.ws.rs.BadRequestException("count and tenants must be positive, first not negative");
        }
        if (!FaultPolicies.STORM_JOBS.contains(job)) {
            throw new jakarta.ws.rs.BadRequestException("job must be one of " + FaultPolicies.STORM_JOBS);
        }
        return submitter.submit(job, count, tenants, sleepMs, first).stream()
                .map(String::valueOf).collect(Collectors.joining("\n", "", "\n"));
    }

    /**
     * {@code POST /fault/submit-job?job=J&tenant=T&count=N&param=k=v&param=…}: stages N jobs of one of the control
     * jobs of scenario (k) for tenant T, each with the parameters given; their submission ids, one a line.
     */
    @POST
    @Path("submit-job")
    @Produces(MediaType.TEXT_PLAIN)
    public String submitJob(@QueryParam("job") String job, @QueryParam("tenant") String tenant,
                            @QueryParam("count") @DefaultValue("1") int count, @QueryParam("param") java.util.List<String> params) {
        if (!FaultPolicies.CONTROL_JOBS.contains(job) || tenant == null || tenant.isBlank() || count <= 0) {
            throw new jakarta.ws.rs.BadRequestException("job one of " + FaultPolicies.CONTROL_JOBS + ", a tenant, a positive count");
        }
        java.util.List<java.util.Properties> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("tenant", tenant);
            for (String param : params) {
                String[] kv = param.split("=", 2);
                p.setProperty(kv[0], kv.length > 1 ? kv[1] : "");
            }
            jobs.add(p);
        }
        return java.util.Arrays.stream(dispatch.submitAll(job, jobs)).mapToObj(String::valueOf)
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /**
     * {@code POST /fault/submit-unique?order=O&threads=T&each=N}: T threads of this server submit, at once, N jobs each,
     * one call at a time, all with the uniqueness key {@code order=O} (scenario (k), ADR 0036); a line per call: the
     * submission id it got, negative when it was a duplicate.
     */
    @POST
    @Path("submit-unique")
    @Produces(MediaType.TEXT_PLAIN)
    public String submitUnique(@QueryParam("order") String order, @QueryParam("threads") int threads, @QueryParam("each") int each)
            throws Exception {
        if (order == null || order.isBlank() || threads <= 0 || each <= 0) {
            throw new jakarta.ws.rs.BadRequestException("an order, threads and each > 0");
        }
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<java.util.List<Long>>> callers = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            callers.add(executor.submit(() -> {
                go.await();
                java.util.List<Long> got = new java.util.ArrayList<>();
                for (int i = 0; i < each; i++) {
                    java.util.Properties p = new java.util.Properties();
                    p.setProperty("tenant", "u");
                    p.setProperty("order", order);
                    p.setProperty("sleepMs", "8000"); // staged or running all through the burst (about 4 s): its key is held
                    io.dispatchpolicy.api.Submitted s = dispatch.submitEach(FaultPolicies.UNIQUE_JOB, java.util.List.of(p)).get(0);
                    got.add(s.outcome() == io.dispatchpolicy.api.Submitted.Outcome.DUPLICATE ? -s.submissionId() : s.submissionId());
                }
                return got;
            }));
        }
        go.countDown();
        StringBuilder lines = new StringBuilder();
        for (java.util.concurrent.Future<java.util.List<Long>> f : callers) {
            f.get().forEach(id -> lines.append(id).append('\n'));
        }
        return lines.toString();
    }

    /**
     * {@code POST /fault/submit-continued?count=N&first=F&tenants=T&sleepMs=S} (scenario (n)): one group of N jobs
     * {@code fault-cont-a}, job {@code i} (from F) of tenant {@code i % T}, sleeping S ms (MIN-MAX spread by index), failing
     * when {@code i % 10 < 3}; each continued on success by {@code fault-cont-b} and on failure by {@code fault-cont-c}
     * (tenant {@code i % T}, 100 ms); the group's callback on all ended, {@code fault-cont-b} of tenant {@code group-F}.
     * The group's id.
     */
    @POST
    @Path("submit-continued")
    @Produces(MediaType.TEXT_PLAIN)
    public String submitContinued(@QueryParam("count") int count, @QueryParam("first") @DefaultValue("0") int first,
                                  @QueryParam("tenants") @DefaultValue("4") int tenants,
                                  @QueryParam("sleepMs") @DefaultValue("300-900") String sleepMs) {
        if (count <= 0 || tenants <= 0 || first < 0) {
            throw new jakarta.ws.rs.BadRequestException("count and tenants must be positive, first not negative");
        }
        String[] range = sleepMs.split("-", 2);
        long min = Long.parseLong(range[0].strip());
        long max = range.length == 2 ? Long.parseLong(range[1].strip()) : min;
        java.util.List<java.util.Properties> jobs = new java.util.ArrayList<>();
        for (int i = first; i < first + count; i++) {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("tenant", "t" + (i % tenants));
            p.setProperty("sleepMs", Long.toString(min + Math.floorMod(i * 7919L, max - min + 1)));
            p.setProperty("fail", Boolean.toString(i % 10 < 3));
            jobs.add(p);
        }
        // the continuation's tenant is its predecessor's: a continuation's parameters are its own, so one per tenant
        java.util.Properties next = new java.util.Properties();
        next.setProperty("tenant", "c" + first);
        next.setProperty("sleepMs", "100");
        java.util.Properties done = new java.util.Properties();
        done.setProperty("tenant", "group-" + first);
        return dispatch.submitGroup(io.dispatchpolicy.api.JobGroup.of("fault-cont-" + first, FaultPolicies.CONT_A, jobs,
                        io.dispatchpolicy.api.SubmitOption.then(io.dispatchpolicy.api.Continuation.onSuccess(FaultPolicies.CONT_B, next),
                                io.dispatchpolicy.api.Continuation.onFailure(FaultPolicies.CONT_C, next)))
                .onAllEnded(FaultPolicies.CONT_B, done)) + "\n";
    }

    /** {@code POST /fault/submit-failing}: stages one always-failing job; its submission id. */
    @POST
    @Path("submit-failing")
    @Produces(MediaType.TEXT_PLAIN)
    public String submitFailing() {
        return dispatch.submitAll(FaultPolicies.FAILING_JOB, java.util.List.of(new java.util.Properties()))[0] + "\n";
    }

    /**
     * {@code POST /fault/start-ungoverned?count=N&sleepMs=S}: starts N executions of {@code fault-ungoverned}, a job no
     * policy governs, with JBeret's own operator (scenario (l)); their execution ids, one a line.
     */
    @POST
    @Path("start-ungoverned")
    @Produces(MediaType.TEXT_PLAIN)
    public String startUngoverned(@QueryParam("count") int count, @QueryParam("sleepMs") @DefaultValue("1000") String sleepMs) {
        if (count <= 0) {
            throw new jakarta.ws.rs.BadRequestException("count must be positive");
        }
        // WildFly picks the operator by the thread's class loader: the module that holds the fault jobs' XMLs
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(FaultPolicies.class.getClassLoader());
        try {
            jakarta.batch.operations.JobOperator jberet = jakarta.batch.runtime.BatchRuntime.getJobOperator();
            StringBuilder ids = new StringBuilder();
            for (int i = 0; i < count; i++) {
                java.util.Properties p = new java.util.Properties();
                p.setProperty("sleepMs", sleepMs);
                ids.append(jberet.start("fault-ungoverned", p)).append('\n');
            }
            return ids.toString();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
