package io.dispatchpolicy.testing;

/**
 * The JVM options of the WildFly servers the suites launch themselves (fault scenarios, the adoption
 * trial, the run command), passed as {@code JBOSS_JAVA_SIZING}, which {@code standalone.conf} puts in
 * {@code JAVA_OPTS}.
 *
 * <p>{@code -XX:TieredStopAtLevel=1} keeps the JIT at C1: on the CI machine's two cores the C2
 * compiler threads compete with the boot for CPU, and a boot with C1 alone takes about two thirds of
 * the time (18 s to 12 s per boot, measured; the fault suite boots 19 servers). What these servers do
 * after booting is waiting for jobs that sleep; no throughput is measured on them (the benchmarks run
 * on the Arquillian server, which keeps the full JIT).
 */
public final class TestServerJvm {

    /** The heap and JIT options of a fault or adoption server. */
    public static final String SIZING = "-Xms256m -Xmx1024m -XX:TieredStopAtLevel=1";

    private TestServerJvm() {
    }
}
