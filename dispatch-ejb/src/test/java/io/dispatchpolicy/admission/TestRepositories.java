package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;

/** The admission's repositories over a test database, for engine-tier tests of other roles' statements. */
public final class TestRepositories {

    private TestRepositories() {
    }

    public static InflightRepository inflight(Jdbc jdbc) {
        InflightRepository inflight = new InflightRepository();
        inflight.jdbc = jdbc;
        return inflight;
    }

    public static AdmissionTake take(Jdbc jdbc) {
        AdmissionTake take = new AdmissionTake();
        take.jdbc = jdbc;
        return take;
    }
}
