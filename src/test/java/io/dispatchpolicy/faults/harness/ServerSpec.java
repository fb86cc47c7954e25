package io.dispatchpolicy.faults.harness;

import java.nio.file.Path;

/**
 * One WildFly of a scenario. A scenario's servers share its database and its EAR, and all run with the
 * same {@code dispatch.node-name} ({@code fault-node}); each has a base directory, ports and a JTA node
 * id of its own. The JTA node id must differ per server: the transaction manager's recovery takes the
 * transactions logged under its node id for its own.
 *
 * @param name       empty for a scenario's only server (its files directly in the scenario's directory,
 *                   JTA node id {@code fault-node}, as the single-server scenarios always had); otherwise
 *                   its files go to {@code server-<name>/} and its JTA node id is {@code fault-<name>}
 * @param portsAbove added to {@code fault.port-offset}: with the default 300, 0 gives HTTP 8380 and 100
 *                   gives 8480
 */
public record ServerSpec(String name, int portsAbove) {

    /** A scenario's only server. */
    public static final ServerSpec ONLY = new ServerSpec("", 0);

    private static final String NODE = "fault-node";

    public ServerSpec {
        if (!name.matches("[a-z0-9]{0,8}")) {
            // It ends up in a directory name and a JTA node id, which may be 28 bytes at most.
            throw new IllegalArgumentException("A server's name is up to 8 lowercase letters or digits: " + name);
        }
        if (portsAbove < 0 || portsAbove % 100 != 0) {
            // WildFly's bindings of one server span less than 100 ports above its offset.
            throw new IllegalArgumentException("portsAbove must be a non-negative multiple of 100: " + portsAbove);
        }
    }

    /** One of several servers of a scenario. */
    public static ServerSpec named(String name, int portsAbove) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("One of several servers needs a name");
        }
        return new ServerSpec(name, portsAbove);
    }

    /** The name every server of the suite runs under: sharing it is what scenario (d) is about. */
    public static String nodeName() {
        return NODE;
    }

    /** Where this server's base directory, console and run logs go. */
    Path dir(Path scenarioDir) {
        return name.isEmpty() ? scenarioDir : scenarioDir.resolve("server-" + name);
    }

    String txNodeId() {
        return name.isEmpty() ? NODE : "fault-" + name;
    }

    int portOffset(FaultSettings settings) {
        return settings.portOffset() + portsAbove;
    }

    /** How the harness's log messages name it. */
    String label() {
        return name.isEmpty() ? "WildFly" : "WildFly " + name;
    }
}
