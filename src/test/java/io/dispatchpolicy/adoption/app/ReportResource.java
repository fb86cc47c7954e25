package io.dispatchpolicy.adoption.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The application's own REST endpoints, serialized by JSON-B as in any Jakarta EE application. */
@RequestScoped
@Path("reports")
@Produces(MediaType.APPLICATION_JSON)
public class ReportResource {

    /** Renamed by a JSON-B annotation: if JSON-B were switched off, the field would keep its Java name. */
    public record Receipt(@JsonbProperty("submission-id") long submissionId, String state) {
    }

    @Inject
    ReportSubmitter submitter;

    @POST
    public Receipt submit(@QueryParam("tenant") String tenant) {
        long id = submitter.submit(tenant);
        return new Receipt(id, submitter.describe(id));
    }

    @GET
    @Path("{id}")
    public Receipt status(@PathParam("id") long id) {
        return new Receipt(id, submitter.describe(id));
    }
}
