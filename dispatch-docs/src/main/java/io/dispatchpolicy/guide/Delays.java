// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

@Stateless
public class Delays {

    @Inject
    DispatchOperator dispatch;

    void submit(Properties props, Instant tomorrowAtNine, List<Properties> manyProps) {
        dispatch.submit("reminder", props, SubmitOption.delay(Duration.ofHours(2)));
        dispatch.submit("reminder", props, SubmitOption.at(tomorrowAtNine));
        dispatch.submitAll("digest", manyProps, SubmitOption.delay(Duration.ofMinutes(10)), SubmitOption.priority(-1));
    }
}
// end::all[]
