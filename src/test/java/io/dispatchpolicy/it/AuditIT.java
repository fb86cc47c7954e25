package io.dispatchpolicy.it;

import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.audit.AuditEntry;
import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.audit.AuditQuery;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.upkeep.Sweeper;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit log (ADR 0022): each operator action writes exactly one row — who, what, on which object, the
 * value before and after, the outcome — readable through the engine and the JSON API, and kept for
 * {@code dispatch.audit-retention}.
 */
class AuditIT extends EngineTest {

    @Inject
    PolicyControl policies;

    @Inject
    PartitionControl partitions;

    @Inject
    JobControl jobs;

    @Inject
    AuditLog audit;

    @Inject
    Sweeper sweeper;

    @Test
    void pausingAndResumingAPolicyIsRecordedWithItsStateBeforeAndAfter() {
        policies.pause("it-pause", Operators.OPERATOR);
        policies.resume("it-pause", Operators.OPERATOR);

        List<AuditEntry> rows = audit.find(new AuditQuery("it-operator", null, "policy", "it-pause", 10));
        assertThat(rows).hasSize(2);
        AuditEntry resumed = rows.get(0);
        AuditEntry paused = rows.get(1);
        assertThat(paused.action()).isEqualTo("POLICY_PAUSE");
        assertThat(paused.before()).isEqualTo("running");
        assertThat(paused.after()).isEqualTo("paused");
        assertThat(paused.outcome()).isEqualTo("done");
        assertThat(paused.detail()).isNull();
        assertThat(resumed.action()).isEqualTo("POLICY_RESUME");
        assertThat(resumed.before()).isEqualTo("paused");
        assertThat(resumed.after()).isEqualTo("running");
        assertThat(resumed.at()).isAfterOrEqualTo(paused.at());
    }

    @Test
    void drainingAPartitionAndDiscardingAJobAreRecordedOnTheirObjects() {
        stage("it-jobs", "audit-drain", 3);
        long partition = partitionId("it-jobs", "audit-drain");
        assertThat(partitions.drain(partition, Operators.OPERATOR)).isEqualTo(3);
        long job = stage("it-jobs", "audit-discard", 1)[0];
        assertThat(jobs.discard(job, Operators.ADMIN)).isEqualTo("Staged job " + job + " discarded.");

        List<AuditEntry> drained = audit.find(new AuditQuery(null, null, "partition", Long.toString(partition), 10));
        assertThat(drained).extracting(AuditEntry::action, AuditEntry::actor, AuditEntry::after, AuditEntry::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("PARTITION_DRAIN", "it-operator", "3 staged job(s) deleted", "done"));
        List<AuditEntry> discarded = audit.find(new AuditQuery(null, "JOB_DISCARD", "job", Long.toString(job), 10));
        assertThat(discarded).hasSize(1);
        assertThat(discarded.get(0).actor()).isEqualTo("it-admin");
        assertThat(discarded.get(0).before()).isEqualTo("STAGED");
        assertThat(discarded.get(0).after()).isEqualTo("Staged job " + job + " discarded.");

        // the JSON API, to any console user
        HttpResponse<String> api = get("?targetKind=partition&target=" + partition, "viewer:viewer-secret");
        assertThat(api.statusCode()).isEqualTo(200);
        assertThat(api.body()).contains("\"action\":\"PARTITION_DRAIN\"").contains("\"actor\":\"it-operator\"")
                .contains("\"after\":\"3 staged job(s) deleted\"");
        assertThat(get("?action=NO_SUCH_ACTION", "viewer:viewer-secret").statusCode()).isEqualTo(400);
        assertThat(get("?limit=0", "viewer:viewer-secret").body()).contains("limit must be 1 to 1000");
        assertThat(get("?limit=1001", "viewer:viewer-secret").statusCode()).isEqualTo(400);
        assertThat(get("?limit=1001", "viewer:viewer-secret").body()).contains("limit must be 1 to 1000, was 1001");
        assertThat(get("?limit=1000&targetKind=partition&target=" + partition, "viewer:viewer-secret").statusCode()).isEqualTo(200);
        assertThat(get("", null).statusCode()).isEqualTo(401);
    }

    @Test
    void rowsOlderThanTheRetentionAreSwept() {
        db.update("INSERT INTO dispatch.audit_log (at, actor, action, target_kind, target, outcome) VALUES "
                + "(now() - interval '91 days', 'audit-old', 'POLICY_PAUSE', 'policy', 'it-pause', 'done'), "
                + "(now() - interval '89 days', 'audit-recent', 'POLICY_PAUSE', 'policy', 'it-pause', 'done')");
        sweeper.sweep();
        assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'audit-old'")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'audit-recent'")).isEqualTo(1);
    }

    private static HttpResponse<String> get(String query, String credentials) {
        return ConsoleHttp.get("api/audit" + query, credentials);
    }
}
