package io.dispatchpolicy.faults.harness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One WildFly of a scenario. A scenario's servers share its database and its EAR, and by default all
 * run with the same {@code dispatch.node-name} ({@code fault-node}, what scenario (d) is about); a
 * server may be given a node name of its own ({@link #withNodeName}) and further system properties
 * ({@link #withProperties}). Each has a base directory, ports and a JTA node id of its own. The JTA node
 * id must differ per server: the transaction manager's recovery takes the transactions logged under
 * its node id for its own.
 *
 * @param name       empty for a scenario's only server (its files directly in the scenario's directory,
 *                   JTA node id {@code fault-node}, as the single-server scenarios always had); otherwise
 *                   its files go to {@code server-<name>/} and its JTA node id is {@code fault-<name>}
 * @param portsAbove added to {@code fault.port-offset}: with the default 300, 0 gives HTTP 8380 and 100
 *                   gives 8480
 * @param dispatchNodeName its {@code dispatch.node-name}
 * @param properties further {@code -Dkey=value} options of its {@code standalone.sh}
 */
public record ServerSpec(String name, int portsAbove, String dispatchNodeName, List<String> properties) {

    private static final String NODE = "fault-node";

    /** A scenario's only server. */
    public static final ServerSpec ONLY = new ServerSpec("", 0, NODE, List.of());

    public ServerSpec {
        if (dispatchNodeName == null || dispatchNodeName.isBlank()) {
            throw new IllegalArgumentException("A server needs a dispatch.node-name");
        }
        properties = List.copyOf(properties);
        if (properties.stream().anyMatch(p -> !p.startsWith("-D") || p.startsWith("-Ddispatch.node-name=")
                || p.startsWith("-Djboss.tx.node.id=") || p.startsWith("-Djboss.server.base.dir=")
                || p.startsWith("-Djboss.socket.binding.port-offset="))) {
            // Those the harness sets itself; a second one would make the command line ambiguous.
            throw new IllegalArgumentException("Extra properties are -Dkey=value other than the harness's own: " + properties);
        }
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
        return new ServerSpec(name, portsAbove, NODE, List.of());
    }

    /** This server under a {@code dispatch.node-name} of its own instead of the shared one. */
    public ServerSpec withNodeName(String nodeName) {
        return new ServerSpec(name, portsAbove, nodeName, properties);
    }

    /** This server with further system properties ({@code -Ddispatch.shards=even}). */
    public ServerSpec withProperties(String... more) {
        List<String> all = new ArrayList<>(properties);
        all.addAll(List.of(more));
        return new ServerSpec(name, portsAbove, dispatchNodeName, all);
    }

    /** The name servers run under unless given their own: sharing it is what scenario (d) is about. */
    public static String nodeName() {
        return NODE;
    }

    /** What the harness puts on {@code standalone.sh}'s command line for this server, database aside. */
    List<String> systemProperties() {
        List<String> all = new ArrayList<>(List.of("-Ddispatch.node-name=" + dispatchNodeName, "-Djboss.tx.node.id=" + txNodeId()));
        all.addAll(properties);
        return all;
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
