package io.dispatchpolicy.admission;

import java.util.List;

/**
 * What a force-admit did.
 *
 * @param admitted jobs admitted
 * @param parked   jobs parked because they could not be admitted (after their attempts)
 * @param failures the errors of the jobs that failed, one line each
 * @param refused  why nothing was tried (the server is suspended), or null
 */
public record ForcedAdmission(int admitted, int parked, List<String> failures, String refused) implements java.io.Serializable {

    /** Nothing admitted, nothing tried, for {@code why}. */
    public static ForcedAdmission refused(String why) {
        return new ForcedAdmission(0, 0, List.of(), why);
    }
}
