package io.dispatchpolicy.infrastructure.persistence;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlTest {

    @Test
    void namedParametersBecomePositionsInOrderAndANameUsedTwiceComesTwice() {
        Sql sql = Sql.of("SELECT :a::text, x FROM t WHERE y = :b AND z = :a");
        assertThat(sql.jdbc()).isEqualTo("SELECT ?::text, x FROM t WHERE y = ? AND z = ?");
        assertThat(sql.positions()).containsExactly("a", "b", "a");
        assertThat(sql.names()).containsExactly("a", "b");
    }

    @Test
    void castsQuotedTextIdentifiersCommentsAndSlicesAreLeftAlone() {
        Sql sql = Sql.of("SELECT ':no', \"col:no\", arr[1:2], x::int -- :no\n/* :no */ FROM t WHERE id = :id AND s = 'it''s :no'");
        assertThat(sql.positions()).containsExactly("id");
        assertThat(sql.jdbc()).isEqualTo("SELECT ':no', \"col:no\", arr[1:2], x::int -- :no\n/* :no */ FROM t WHERE id = ? AND s = 'it''s :no'");
    }

    @Test
    void fragmentsAreFilledByNameAndAStatementRunsOnlyWhenAllAre() {
        Sql template = Sql.template("SELECT id FROM p WHERE {{which}} ORDER BY {{order}}");
        Sql byId = template.with("which", "id = :id").with("order", "id");
        assertThat(byId.jdbc()).isEqualTo("SELECT id FROM p WHERE id = ? ORDER BY id");
        assertThat(byId.positions()).containsExactly("id");
        assertThatThrownBy(() -> template.with("which", "id = :id").jdbc()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[order]");
        assertThatThrownBy(() -> Sql.of("SELECT {{x}}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> template.with("nope", "1")).hasMessageContaining("{{nope}}");
    }

    @Test
    void aBareQuestionMarkIsRefused() {
        assertThatThrownBy(() -> Sql.of("SELECT * FROM t WHERE a = ? AND b = :b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bare ?");
    }

    @Test
    void valuesBindToEveryPositionOfTheirNameAndMismatchedNamesAreRefused() throws Exception {
        Sql sql = Sql.of("UPDATE t SET a = :a, n = :n WHERE a = :a");
        List<String> calls = new ArrayList<>();
        PreparedStatement st = (PreparedStatement) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + args[0] + "=" + args[1] + (args.length > 2 ? "/" + args[2] : ""));
                    return null;
                });
        Params.of().text("a", "x").bigint("n", null).bind(sql, (Connection) null, st);
        assertThat(calls).containsExactly("setString1=x", "setObject2=null/" + Types.BIGINT, "setString3=x");
        assertThatThrownBy(() -> Params.of().text("a", "x").bind(sql, null, st)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[a, n]");
        assertThatThrownBy(() -> Params.of().text("a", "x").bigint("n", 1L).text("typo", "y").bind(sql, null, st))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Params.of().text("a", "x").text("a", "y")).hasMessageContaining("set twice");
    }
}
