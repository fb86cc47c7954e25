package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's contract crosses class loaders: the standalone console holds its own copy of these
 * types and passes values to the engine's copy by serialization (ADR 0026). So every type of ours that
 * a console interface takes, returns or throws — and every type inside those — must be serializable.
 */
class ConsoleContractTest {

    static final List<Class<?>> CONTRACT = List.of(Monitoring.class, PolicyControl.class, PartitionControl.class,
            DeadJobControl.class, ScheduleControl.class, AuditLog.class, JobControl.class,
            io.dispatchpolicy.console.bulk.BulkActionControl.class);
    /** What the contract throws to the console without declaring it (runtime exceptions it catches by type). */
    static final List<Class<?>> THROWN = List.of(OverrideRefused.class, io.dispatchpolicy.console.audit.ActionRefused.class,
            io.dispatchpolicy.console.jobs.JobRequestRefused.class, io.dispatchpolicy.schedule.ScheduleActionRefused.class,
            io.dispatchpolicy.config.InvalidSettingException.class, io.dispatchpolicy.api.SubmissionRejectedException.class,
            io.dispatchpolicy.spi.ScheduleDeclarationException.class, io.dispatchpolicy.console.bulk.BulkActionRefused.class);

    @Test
    void everyTypeTheConsoleContractCarriesIsSerializable() {
        Set<Class<?>> reached = reachable();
        assertThat(reached).as("the walk reaches the records it should").contains(
                io.dispatchpolicy.console.monitoring.PartitionDetail.class, io.dispatchpolicy.domain.model.Partition.class,
                io.dispatchpolicy.domain.schedule.ScheduleDefinition.class, OverrideRefused.class);
        Set<String> notSerializable = new TreeSet<>();
        for (Class<?> type : reached) {
            if (!Serializable.class.isAssignableFrom(type)) {
                notSerializable.add(type.getName());
            }
        }
        assertThat(notSerializable).isEmpty();
    }

    /** Our types reachable from the contract's signatures, through record components and instance fields. */
    static Set<Class<?>> reachable() {
        Set<Class<?>> seen = new LinkedHashSet<>();
        Deque<Type> todo = new ArrayDeque<>(THROWN);
        for (Class<?> contract : CONTRACT) {
            for (Method method : contract.getMethods()) {
                todo.add(method.getGenericReturnType());
                todo.addAll(List.of(method.getGenericParameterTypes()));
                todo.addAll(List.of(method.getGenericExceptionTypes()));
            }
        }
        while (!todo.isEmpty()) {
            Type type = todo.pop();
            if (type instanceof ParameterizedType parameterized) {
                todo.add(parameterized.getRawType());
                todo.addAll(List.of(parameterized.getActualTypeArguments()));
            } else if (type instanceof GenericArrayType array) {
                todo.add(array.getGenericComponentType());
            } else if (type instanceof Class<?> raw) {
                Class<?> element = raw.isArray() ? raw.getComponentType() : raw;
                if (element.getName().startsWith("io.dispatchpolicy.") && seen.add(element)) {
                    if (element.isRecord()) {
                        for (RecordComponent component : element.getRecordComponents()) {
                            todo.add(component.getGenericType());
                        }
                    } else {
                        for (Class<?> c = element; c != null && c.getName().startsWith("io.dispatchpolicy."); c = c.getSuperclass()) {
                            for (Field field : c.getDeclaredFields()) {
                                if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                                    todo.add(field.getGenericType());
                                }
                            }
                        }
                    }
                }
            }
        }
        return seen;
    }
}
