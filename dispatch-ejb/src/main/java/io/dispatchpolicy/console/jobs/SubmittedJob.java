package io.dispatchpolicy.console.jobs;

import java.io.Serializable;

/**
 * What became of one job of a {@link SubmitRequest}: its submission id and the outcome's name
 * ({@code STAGED}, {@code DUPLICATE}, {@code DEBOUNCED}, {@code STARTED}), as {@code Submitted} says it.
 */
public record SubmittedJob(long id, String outcome) implements Serializable {
}
