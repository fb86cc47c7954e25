package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sweep of uniqueness and debounce keys (ADR 0036): a key whose holder is gone and that was taken more than a
 * minute ago is deleted; a held one, or one taken less than a minute ago, stays; the sweep walks the keys a slice at
 * a time and starts over after the last.
 */
class KeySweepTest {

    private static final String POLICY = "it-key-sweep";
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);

    @AfterEach
    void removeThem() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE policy_name = ?)", POLICY);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
        db.update("DELETE FROM dispatch.submission_keys WHERE policy_name = ?", POLICY);
    }

    @Test
    void keysNobodyHoldsAreSweptASliceAtATime() {
        long partition = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'a', '{}') RETURNING id", POLICY);
        long held = db.count("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters) VALUES (?, 'j', '{}') RETURNING id", partition);
        db.update("INSERT INTO dispatch.submission_keys (policy_name, kind, key, submission_id, held_since) VALUES "
                + "(?, 'unique', 'held', ?, now() - interval '1 hour'), (?, 'unique', 'gone', 1, now() - interval '1 hour'), "
                + "(?, 'debounce', 'gone', 2, now() - interval '1 hour'), (?, 'unique', 'fresh', 3, now())", POLICY, held, POLICY, POLICY, POLICY);
        SweepRepository sweep = new SweepRepository();
        sweep.jdbc = jdbc;
        int swept = 0;
        for (int pass = 0; pass < 3; pass++) { // other tests' keys may share the table: passes until ours are reached
            swept += sweep.releasedKeys();
        }
        assertThat(swept).isGreaterThanOrEqualTo(2);
        assertThat(db.strings("SELECT kind || ' ' || key FROM dispatch.submission_keys WHERE policy_name = ? ORDER BY 1", POLICY))
                .containsExactly("unique fresh", "unique held");
    }
}
