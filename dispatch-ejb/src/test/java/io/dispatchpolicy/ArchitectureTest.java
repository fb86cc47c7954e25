package io.dispatchpolicy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The engine's layering rules (issue 32, ADR 0018), checked on the compiled classes so they stay true.
 *
 * <p>Rules the code does not meet yet are frozen ({@link FreezingArchRule}): the violations found when
 * the rule was written are kept in {@code src/test/resources/archunit-store}, a new one fails the build,
 * and one that is mended leaves the store on the next run. The cut by role is done when the store is
 * empty and the freezing can go.
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
        FreezingArchRule.freeze(noClasses().that().resideInAnyPackage("io.dispatchpolicy.api..", "io.dispatchpolicy.spi..")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.dispatchpolicy.api..", "io.dispatchpolicy.spi..",
                        "java..", "jakarta..")
                .because("api and spi are the public contract: an engine type there is one an application can depend on"))
                .check(classes);
    }

    /** The model is plain Java: no database, no container, no other layer of the engine. */
    @Test
    void theDomainIsPure() {
        noClasses().that().resideInAPackage("io.dispatchpolicy.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "jakarta.persistence..",
                        "jakarta.ejb..", "jakarta.inject..", "jakarta.enterprise.context..", "jakarta.enterprise.inject..",
                        "jakarta.transaction..", "io.dispatchpolicy.application..", "io.dispatchpolicy.infrastructure..",
                        "io.dispatchpolicy.interfaces..", "io.dispatchpolicy.config..")
                .because("domain logic is unit-tested without a database or a container")
                .check(classes);
    }

    /** No package imports one that imports it back, however long the way round. */
    @Test
    void noPackageCycles() {
        FreezingArchRule.freeze(slices().matching("io.dispatchpolicy.(**)").should().beFreeOfCycles()).check(classes);
    }

    /** Repositories speak domain types or their own records: none returns a type of the services above it. */
    @Test
    void persistenceKnowsNothingOfTheServicesAboveIt() {
        FreezingArchRule.freeze(noClasses().that().resideInAPackage("io.dispatchpolicy.infrastructure.persistence..")
                .should().dependOnClassesThat().resideInAnyPackage("io.dispatchpolicy.application..",
                        "io.dispatchpolicy.interfaces..")
                .because("a repository returning a console or service type ties the storage to one caller")).check(classes);
    }
}
