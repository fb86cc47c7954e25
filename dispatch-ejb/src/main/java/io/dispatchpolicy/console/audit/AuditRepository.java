package io.dispatchpolicy.console.audit;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** The audit log's rows. */
@ApplicationScoped
public class AuditRepository {

    private static final Sql INSERT = Sql.of("""
            INSERT INTO dispatch.audit_log (actor, action, target_kind, target, before_value, after_value, outcome, detail)
            VALUES (:actor, :action, :targetKind, :target, :before, :after, :outcome, :detail)
            """);

    // Each filter is optional: a null parameter matches every row.
    private static final Sql FIND = Sql.of("""
            SELECT id, at, actor, action, target_kind, target, before_value, after_value, outcome, detail
              FROM dispatch.audit_log
             WHERE (CAST(:actor AS text) IS NULL OR actor = :actor)
               AND (CAST(:action AS text) IS NULL OR action = :action)
               AND (CAST(:targetKind AS text) IS NULL OR target_kind = :targetKind)
               AND (CAST(:target AS text) IS NULL OR target = :target)
             ORDER BY id DESC
             LIMIT :limit
            """);

    @Inject
    Jdbc jdbc;

    void insert(Actor actor, OperatorAction action, String target, String before, String after, String outcome, String detail) {
        jdbc.update(INSERT, Params.of().text("actor", actor.name()).text("action", action.name())
                .text("targetKind", action.targetKind()).text("target", target).text("before", before).text("after", after)
                .text("outcome", outcome).text("detail", detail));
    }

    List<AuditEntry> find(AuditQuery q) {
        return jdbc.query(FIND, Params.of().text("actor", blankToNull(q.actor())).text("action", blankToNull(q.action()))
                        .text("targetKind", blankToNull(q.targetKind())).text("target", blankToNull(q.target()))
                        .integer("limit", q.limit()),
                rs -> new AuditEntry(rs.getLong(1), Jdbc.instant(rs.getTimestamp(2)), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10)));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
