package io.dispatchpolicy.partition;

import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's pause of its partition (ADR 0033) against the engine's test database: every row of its key (gate row and
 * lanes) waits, another key does not, a longer pause in force is kept (a shorter one never shortens it) and a later
 * one extends it; an execution not in flight pauses nothing.
 */
class PartitionPausesTest {

    private static final String POLICY = "it-pauses";
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final PartitionPauses pauses = new PartitionPauses();
    private long gate;
    private long lane;
    private long other;

    @BeforeEach
    void aKeyWithALaneAndAnotherKey() {
        pauses.jdbc = jdbc;
        pauses.outbox = io.dispatchpolicy.notify.TestOutbox.none(jdbc);
        gate = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'k', '{}') RETURNING id", POLICY);
        lane = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, context) VALUES (?, 'k', 'bulk', '{}') RETURNING id",
                POLICY);
        other = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'o', '{}') RETURNING id", POLICY);
        db.update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, policy_name, node_id, admitted_at) "
                + "VALUES (-77, -77, ?, ?, ?, gen_random_uuid(), now())", lane, gate, POLICY);
    }

    @AfterEach
    void removeIt() {
        db.update("DELETE FROM dispatch.inflight_jobs WHERE execution_id = -77");
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    @Test
    void everyRowOfTheKeyWaitsALongerPauseIsKeptAndALaterOneExtendsIt() {
        Optional<PartitionPauses.Paused> first = pauses.pause(-77, null, 60_000L, "429 for a minute");
        assertThat(first).isPresent();
        assertThat(first.get().partitionId()).as("the key's gate row").isEqualTo(gate);
        assertThat(first.get().partitionKey()).isEqualTo("k");
        assertThat(paused(gate)).isEqualTo("429 for a minute -77");
        assertThat(paused(lane)).isEqualTo("429 for a minute -77");
        assertThat(paused(other)).as("another key").isEqualTo("none");

        Instant minute = first.get().until();
        assertThat(pauses.pause(-77, null, 1_000L, "429 for a second").orElseThrow().until()).as("a shorter pause never shortens it")
                .isEqualTo(minute);
        assertThat(paused(lane)).isEqualTo("429 for a minute -77");

        Instant hour = Instant.now().plusSeconds(3_600);
        assertThat(pauses.pause(-77, hour.toEpochMilli(), null, "429 for an hour").orElseThrow().until().toEpochMilli())
                .isEqualTo(hour.toEpochMilli());
        assertThat(paused(gate)).isEqualTo("429 for an hour -77");

        assertThat(pauses.pause(-78, null, 1_000L, "not in flight")).isEmpty();
    }

    private String paused(long partition) {
        return db.strings("SELECT CASE WHEN paused_until > now() THEN pause_reason || ' ' || paused_by ELSE 'none' END "
                + "FROM dispatch.partitions WHERE id = ?", partition).get(0);
    }
}
