package io.dispatchpolicy.node;

import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseOutageTest {

    @Test
    void connectionLevelFailuresAnywhereInTheCauseChainAreAnOutage() {
        assertThat(DatabaseOutage.isConnectivityFailure(new RuntimeException(new SQLException("gone", "08006")))).isTrue();
        assertThat(DatabaseOutage.isConnectivityFailure(new SQLException("shutting down", "57P01"))).isTrue();
        assertThat(DatabaseOutage.isConnectivityFailure(new SQLException("too many", "53300"))).isTrue();
        assertThat(DatabaseOutage.isConnectivityFailure(new IllegalStateException(new ConnectException("refused")))).isTrue();
    }

    @Test
    void otherFailuresAreNot() {
        assertThat(DatabaseOutage.isConnectivityFailure(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(DatabaseOutage.isConnectivityFailure(new IllegalArgumentException("bad"))).isFalse();
    }

    @Test
    void theServerToKnockOnComesFromASingleHostUrl() {
        assertThat(DatabaseOutage.serverAddress("jdbc:postgresql://db.example:6543/dispatch"))
                .isEqualTo(InetSocketAddress.createUnresolved("db.example", 6543));
        assertThat(DatabaseOutage.serverAddress("jdbc:postgresql://localhost/dispatch"))
                .isEqualTo(InetSocketAddress.createUnresolved("localhost", 5432));
        assertThat(DatabaseOutage.serverAddress("jdbc:postgresql://a:1,b:2/dispatch")).isNull();
        assertThat(DatabaseOutage.serverAddress("jdbc:h2:mem:x")).isNull();
    }
}
