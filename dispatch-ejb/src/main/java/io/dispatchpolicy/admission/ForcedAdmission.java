package io.dispatchpolicy.admission;

import java.util.List;

/**
 * What a force-admit did.
 *
 * @param admitted jobs admitted
 * @param parked   jobs parked because they could not be admitted (after their attempts)
 * @param failures the errors of the jobs that failed, one line each
 */
public record ForcedAdmission(int admitted, int parked, List<String> failures) {
}
