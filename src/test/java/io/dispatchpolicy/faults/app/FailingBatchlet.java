package io.dispatchpolicy.faults.app;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/** Always fails: the job a retry policy restarts, then buries. */
@Dependent
@Named("failingBatchlet")
public class FailingBatchlet extends AbstractBatchlet {

    public static final String ERROR = "fault-failing always fails";

    @Override
    public String process() {
        throw new IllegalStateException(ERROR);
    }
}
