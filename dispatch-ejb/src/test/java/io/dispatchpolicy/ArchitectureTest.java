package io.dispatchpolicy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The engine's layering rules (issue 32, ADR 0018), checked on the compiled classes so they stay true:
 * the roles in their order, a pure domain, infrastructure that knows no role, no engine role that sees the
 * console, api and spi free of engine types, and no package cycle.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importTheEngine() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.dispatchpolicy");
    }

    /** What applications compile against names nothing of the engine: they see only api and spi. */
    @Test
    void apiAndSpiExposeNothingOfTheEngine() {
        noClasses().that().resideInAnyPackage("io.dispatchpolicy.api..", "io.dispatchpolicy.spi..")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.dispatchpolicy.api..", "io.dispatchpolicy.spi..",
                        "java..", "jakarta..")
                .because("api and spi are the public contract: an engine type there is one an application can depend on")
                .check(classes);
    }

    /** The model is plain Java: no database, no container, no role of the engine. */
    @Test
    void theDomainIsPure() {
        noClasses().that().resideInAPackage("io.dispatchpolicy.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "jakarta.persistence..",
                        "jakarta.ejb..", "jakarta.inject..", "jakarta.enterprise.context..", "jakarta.enterprise.inject..",
                        "jakarta.transaction..", "io.dispatchpolicy.infrastructure..", "io.dispatchpolicy.config..")
                .orShould().dependOnClassesThat().resideInAnyPackage(ROLES)
                .because("domain logic is unit-tested without a database or a container")
                .check(classes);
    }

    /**
     * The roles, each a folder that owns its service, its SQL and its records, from the entry points down
     * (ADR 0018). A role uses the roles below it, never one above: staging knows nothing of admission,
     * admission nothing of the tick that calls it. Below every role: the policy index, the node's identity,
     * the partition rows and their lock order, the metrics, and the plain infrastructure (JDBC, JSON, JBeret).
     */
    private static final String[][] LAYERS = {
            {"io.dispatchpolicy.operator..", "io.dispatchpolicy.lifecycle..", "io.dispatchpolicy.console.."},
            {"io.dispatchpolicy.tick..", "io.dispatchpolicy.upkeep..", "io.dispatchpolicy.running.."},
            {"io.dispatchpolicy.completion.."},
            {"io.dispatchpolicy.follow.."},
            {"io.dispatchpolicy.admission.."},
            {"io.dispatchpolicy.schedule.."},
            {"io.dispatchpolicy.staging.."},
            {"io.dispatchpolicy.policy..", "io.dispatchpolicy.node..", "io.dispatchpolicy.partition..", "io.dispatchpolicy.observe.."},
    };

    private static final String[] ROLES = java.util.Arrays.stream(LAYERS).limit(LAYERS.length - 1)
            .flatMap(java.util.Arrays::stream).toArray(String[]::new);

    @Test
    void eachRoleUsesOnlyTheRolesBelowIt() {
        for (int layer = 1; layer < LAYERS.length; layer++) {
            String[] above = java.util.Arrays.stream(LAYERS).limit(layer).flatMap(java.util.Arrays::stream).toArray(String[]::new);
            noClasses().that().resideInAnyPackage(LAYERS[layer])
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because("a role that calls one above it is a loop in the engine's shape").check(classes);
        }
    }

    /**
     * A repository's nested records are its own package's business: what crosses a package boundary is a
     * domain type or a top-level record of the repository's package, so a caller elsewhere never depends on
     * how one repository happens to group its statements.
     */
    @Test
    void noPackageUsesAnotherPackagesRepositoryRecords() {
        java.util.List<String> violations = new java.util.ArrayList<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            c.getDirectDependenciesFromSelf().forEach(d -> {
                com.tngtech.archunit.core.domain.JavaClass target = d.getTargetClass();
                java.util.Optional<com.tngtech.archunit.core.domain.JavaClass> enclosing = target.getEnclosingClass();
                if (enclosing.isPresent() && enclosing.get().getSimpleName().endsWith("Repository")
                        && target.getPackageName().startsWith("io.dispatchpolicy")
                        && !target.getPackageName().equals(c.getPackageName())) {
                    violations.add(d.getDescription());
                }
            });
        }
        org.assertj.core.api.Assertions.assertThat(violations).as("nested records of repositories used outside their package").isEmpty();
    }

    /** The shared infrastructure serves every role and knows none. */
    @Test
    void infrastructureKnowsNoRole() {
        noClasses().that().resideInAPackage("io.dispatchpolicy.infrastructure..")
                .should().dependOnClassesThat().resideInAnyPackage(ROLES)
                .orShould().dependOnClassesThat().resideInAnyPackage("io.dispatchpolicy.policy..", "io.dispatchpolicy.partition..",
                        "io.dispatchpolicy.observe..")
                .because("JDBC, JSON and the JBeret adapter are plumbing: a role type there ties them to one caller").check(classes);
    }

    /** The engine's roles never see the console: its read side and its controls are built on them, not in them. */
    @Test
    void noEngineRoleReturnsAConsoleType() {
        noClasses().that().resideOutsideOfPackages("io.dispatchpolicy.console..", "io.dispatchpolicy.operator..", "io.dispatchpolicy.lifecycle..")
                .should().dependOnClassesThat().resideInAPackage("io.dispatchpolicy.console..")
                .because("a repository returning a console type ties the engine's storage to one page").check(classes);
    }

    /**
     * No package takes part in a dependency cycle. A cycle is found on the packages' graph of every
     * dependency the compiled classes have (fields, signatures, calls, annotations), by strongly connected
     * components ({@link PackageCycles}): ArchUnit's own {@code slices().should().beFreeOfCycles()} reported
     * one cycle per component, in words that varied between runs, and missed one while the cut went on.
     */
    @Test
    void noPackageCycles() {
        java.util.Map<String, java.util.Set<String>> graph = new java.util.TreeMap<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            String from = c.getPackageName();
            java.util.Set<String> to = graph.computeIfAbsent(from, k -> new java.util.TreeSet<>());
            c.getDirectDependenciesFromSelf().forEach(d -> {
                String target = d.getTargetClass().getPackageName();
                if (target.startsWith("io.dispatchpolicy") && !target.equals(from)) {
                    to.add(target);
                }
            });
        }
        java.util.Set<String> cyclic = new java.util.TreeSet<>();
        for (java.util.Set<String> component : PackageCycles.stronglyConnected(graph)) {
            if (component.size() > 1) {
                component.forEach(p -> cyclic.add(p.replaceFirst("^io\\.dispatchpolicy\\.?", "")));
            }
        }
        org.assertj.core.api.Assertions.assertThat(cyclic).as("packages in a dependency cycle (graph: %s)", graph)
                .isEmpty();
    }

    /** Upkeep's loop times the maintenance tasks and is plain Java; what the tasks do lives with their roles. */
    @Test
    void theMaintenanceLoopIsPlainJava() {
        noClasses().that().haveFullyQualifiedName("io.dispatchpolicy.upkeep.Maintainer")
                .or().haveFullyQualifiedName("io.dispatchpolicy.upkeep.MaintenanceTask")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.dispatchpolicy.upkeep..", "java..")
                .because("the maintainer is tested with a settable clock and no server").check(classes);
    }
}
