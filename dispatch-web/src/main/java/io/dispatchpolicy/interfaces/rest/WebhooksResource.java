package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.WebhookView;
import io.dispatchpolicy.interfaces.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * The webhooks (the guide, "Webhooks"; ADR 0041): each declared one — its host, never its path or secret — with its
 * deliveries pending, delivered and failed in the last 24 hours and its last error. They are declared in the server's
 * settings ({@code dispatch.webhook.<name>.*}), not here.
 */
@Path("/webhooks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class WebhooksResource {

    @Inject
    @Engine
    Monitoring monitoring;

    @GET
    public List<WebhookView> webhooks() {
        return monitoring.webhooks();
    }
}
