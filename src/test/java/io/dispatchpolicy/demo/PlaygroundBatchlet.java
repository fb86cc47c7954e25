package io.dispatchpolicy.demo;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Every playground job: sleeps {@code millis}, then completes, or fails when {@code fail} is true (the
 * retries card's job). Like {@link DemoReportBatchlet} its {@code stop()} does nothing (a stop that ended it
 * at once would make WildFly's later stop of the same job fail at undeploy); an interrupt ends it, which is
 * what the engine's timeout does to a job that outlives its stop (the timeout card).
 */
@Dependent
@Named("playgroundBatchlet")
public class PlaygroundBatchlet extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String millis;

    @Inject
    @BatchProperty
    String fail;

    @Override
    public String process() throws Exception {
        long sleep = millis == null || millis.isBlank() ? 200 : Long.parseLong(millis);
        Thread.sleep(sleep);
        if ("true".equals(fail)) {
            throw new IllegalStateException("the playground's failing job fails, as asked");
        }
        return "COMPLETED";
    }
}
