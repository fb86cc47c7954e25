// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Properties;

@Stateless
public class Continuations {

    @Inject
    DispatchOperator dispatch;

    long importThenReindex(Properties tenant42) {
        return dispatch.submit("import", tenant42, SubmitOption.then(
                Continuation.onSuccess("reindex", tenant42)                          // after its last execution COMPLETED
                        .then(Continuation.onAnyEnd("notify", tenant42)),           // a chain: after the re-index ends
                Continuation.onFailure("cleanup", tenant42,                          // after it FAILED for good (retries spent)
                        SubmitOption.delay(Duration.ofMinutes(5)), SubmitOption.priority(5))));
    }
}
// end::all[]
