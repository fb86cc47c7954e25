package io.dispatchpolicy.console;

import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.AuditTrail;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.ConsoleRole;
import io.dispatchpolicy.console.audit.OperatorAction;
import io.dispatchpolicy.node.ServerSuspension;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** An operator's force-admit while the server is suspended admits nothing and says why (ADR 0021), audited. */
class ForceAdmitWhileSuspendedTest {

    @Test
    void aForceAdmitWhileSuspendedTouchesNoPartitionAndSaysTheServerIsSuspended() throws Exception {
        List<String> audit = new CopyOnWriteArrayList<>();
        AuditTrail trail = new AuditTrail() {
            @Override
            public void done(Actor actor, OperatorAction action, String target, String before, String after) {
                audit.add(actor.name() + " " + action + " " + target + " done: " + after);
            }

            @Override
            public void notDone(Actor actor, OperatorAction action, String target, String before, String outcome, String detail) {
                audit.add(actor.name() + " " + action + " " + target + " " + outcome);
            }
        };
        Audited audited = new Audited();
        set(audited, "trail", trail);
        ServerSuspension suspension = new ServerSuspension();
        assertThat(suspension.hold(Duration.ofSeconds(1))).isTrue();
        List<String> admissionCalls = new CopyOnWriteArrayList<>();
        AdmissionService admission = (AdmissionService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {AdmissionService.class}, (proxy, method, args) -> {
                    admissionCalls.add(method.getName());
                    throw new AssertionError("admission reached while suspended: " + method.getName());
                });
        DefaultPartitionControl control = new DefaultPartitionControl();
        control.admission = admission;
        control.suspension = suspension;
        control.audited = audited;

        ForcedAdmission result = control.forceAdmit(42, 5, Actor.of("op", ConsoleRole.OPERATOR));

        assertThat(result.admitted()).isZero();
        assertThat(result.refused()).isEqualTo(DefaultPartitionControl.SUSPENDED);
        assertThat(admissionCalls).isEmpty();
        assertThat(audit).containsExactly("op PARTITION_FORCE_ADMIT 42 done: " + DefaultPartitionControl.SUSPENDED);

        suspension.release();
    }

    private static void set(Object target, String field, Object value) throws ReflectiveOperationException {
        Field f = target.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(target, value);
    }
}
