package io.dispatchpolicy.it;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.node.NodeLiveness;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.upkeep.RecoveryService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node is gone when PostgreSQL says its session is (its liveness lock is free) and its heartbeat is
 * two intervals old — not because it shares a name with this node, and not merely because its
 * heartbeat is late while its session lives.
 */
class LivenessIT extends SystemTest {

    @Inject
    RecoveryService recovery;

    @Inject
    ThisNode node;

    @Inject
    Jdbc jdbc;

    @Test
    void aLiveServerSharingThisNodesNameKeepsItsWorkAndIsRecoveredOnceItsSessionDies() throws Exception {
        // Another server configured with this node's name, slow to heartbeat (a minute late, far from
        // inflight-stale-after) but alive: PostgreSQL holds its session, and with it its lock.
        UUID twin = UUID.randomUUID();
        int key = (int) db.count("SELECT nextval('dispatch.node_lock_key_seq')");
        db.update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at, lock_key) "
                + "VALUES (?, ?, now() - interval '10 minutes', now() - interval '60 seconds', ?)", twin, node.name(), key);
        long queued = db.admittedButNeverSubmitted("it-recovery", twin);
        TestSupport.Running running = db.startedOn(twin, "it-heal", "twin-tenant");

        try (Connection session = jdbc.dataSource().getConnection()) {
            try (PreparedStatement lock = session.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
                lock.setInt(1, NodeLiveness.NAMESPACE);
                lock.setInt(2, key);
                lock.execute();
            }
            assertThat(recovery.recoverUnstarted()).isZero();
            assertThat(recovery.releaseDeadNodesJobs()).isZero();
            assertThat(db.strings("SELECT node_id::text FROM dispatch.inflight_jobs WHERE execution_id IN (?, ?)",
                    queued, running.executionId())).containsOnly(twin.toString()).hasSize(2);
            assertThat(db.batchStatus(running.executionId())).isEqualTo("STARTED");
            // its session ends (a kill -9 closes the socket); a pooled connection lives on, so say it
            try (PreparedStatement unlock = session.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
                unlock.setInt(1, NodeLiveness.NAMESPACE);
                unlock.setInt(2, key);
                unlock.execute();
            }
        }

        // Its session is gone (a kill -9 closes the socket): gone at once, not after inflight-stale-after.
        // The node's own recovery pass may take the rows first: either way each is taken once.
        int adopted = recovery.recoverUnstarted();
        int released = recovery.releaseDeadNodesJobs();
        assertThat(adopted).isLessThanOrEqualTo(1);
        assertThat(released).isLessThanOrEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE node_id = ?", twin)).isZero();
        assertThat(db.batchStatus(running.executionId())).isEqualTo("FAILED");
    }

    @Test
    void thisBootHoldsItsLivenessLock() {
        assertThat(db.count("SELECT count(*) FROM pg_locks l JOIN dispatch.nodes n ON l.objid = n.lock_key::oid "
                + "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = ?::oid AND n.id = ?",
                NodeLiveness.NAMESPACE, node.id())).isEqualTo(1);
    }
}
