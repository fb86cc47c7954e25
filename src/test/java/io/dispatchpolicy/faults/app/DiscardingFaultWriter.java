package io.dispatchpolicy.faults.app;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import java.util.List;

/** Scenario (k)'s chunk writer: the items' reads are what is measured; writing them would add nothing. */
@Dependent
@Named("faultDiscardingWriter")
public class DiscardingFaultWriter extends AbstractItemWriter {

    @Override
    public void writeItems(List<Object> items) {
        // nothing to write
    }
}
