// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.PartitionPause;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** A chunk step's writer calling a tenant's API: a 429 pauses the tenant's partition, on every node. */
@Dependent
@Named("billingWriter")
public class RateLimitedWriter extends AbstractItemWriter {

    private final HttpClient http = HttpClient.newHttpClient();

    @Inject
    PartitionPause pause;

    @Inject
    JobContext job;

    @Override
    public void writeItems(List<Object> items) throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create("https://billing.example.com/charges"))
                .POST(HttpRequest.BodyPublishers.ofString(items.toString())).build(), HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 429) {
            long retryAfter = response.headers().firstValueAsLong("Retry-After").orElse(60);
            pause.pauseFor(job.getExecutionId(), Duration.ofSeconds(retryAfter), "billing API answered 429");
            throw new IllegalStateException("rate limited");   // fail (the policy's retries apply), wait, or go on
        }
    }
}
// end::all[]
