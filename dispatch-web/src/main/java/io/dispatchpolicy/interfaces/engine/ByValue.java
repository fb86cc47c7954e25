package io.dispatchpolicy.interfaces.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls an engine service whose classes come from another deployment's class loader (the standalone
 * console beside a user's WAR), as WildFly's remote views would in the same JVM: by value. Each argument
 * is serialized and read back with the engine's classes, the result and any exception the other way
 * (ADR 0026). The call itself stays on the caller's thread, so its identity and transaction context
 * are the caller's, as for any local EJB call.
 *
 * <p>Why not a remote view: the contract's values are records, which WildFly's marshalling cannot
 * rebuild; Java serialization can. Only our types and the JDK's cross (a filter refuses the rest), and
 * a value nobody on this side knows (an engine-internal exception in a cause chain) arrives as an
 * {@link IllegalStateException} with its class and message.
 */
final class ByValue implements InvocationHandler {

    private static final ObjectInputFilter OURS_AND_THE_JDKS = info -> {
        Class<?> type = info.serialClass();
        if (type == null) {
            return ObjectInputFilter.Status.UNDECIDED;
        }
        while (type.isArray()) {
            type = type.getComponentType();
        }
        String name = type.getName();
        return type.isPrimitive() || name.startsWith("java.") || name.startsWith("io.dispatchpolicy.")
                || name.startsWith("jakarta.")
                ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
    };

    private final Object target;
    private final Class<?> view;
    private final ClassLoader engine;
    private final ClassLoader console;
    private final Map<Method, Method> methods = new ConcurrentHashMap<>();

    /**
     * @param target  the engine's EJB proxy, implementing the engine's copy of the interface
     * @param view    the engine's copy of the interface ({@link #view})
     * @param console the class loader of the console's copy
     */
    ByValue(Object target, Class<?> view, ClassLoader console) {
        this.target = target;
        this.view = view;
        this.engine = view.getClassLoader();
        this.console = console;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return method.invoke(this, args);
        }
        Method there = methods.computeIfAbsent(method, this::counterpart);
        Object[] copied = args == null ? null : new Object[args.length];
        for (int i = 0; copied != null && i < args.length; i++) {
            copied[i] = copy(args[i], engine);
        }
        Object result;
        try {
            result = there.invoke(target, copied);
        } catch (InvocationTargetException e) {
            throw copyThrowable(e.getCause());
        }
        return copy(result, console);
    }

    /** The engine's method of the same name and parameter types (by name: they are other classes). */
    private Method counterpart(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Class<?>[] theirs = new Class<?>[types.length];
        try {
            for (int i = 0; i < types.length; i++) {
                theirs[i] = types[i].isPrimitive() || types[i].getClassLoader() == null
                        ? types[i] : Class.forName(types[i].getName(), false, engine);
            }
            return view.getMethod(method.getName(), theirs);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException("The engine's deployment has another version of the console's contract ("
                    + method + "): deploy the console of the same release", e);
        }
    }

    /** The interface {@code bean} implements under {@code type}'s name (another class loader's copy); null if none. */
    static Class<?> view(Object bean, Class<?> type) {
        if (bean != null) {
            for (Class<?> view : bean.getClass().getInterfaces()) {
                if (view.getName().equals(type.getName())) {
                    return view;
                }
            }
        }
        return null;
    }

    /** {@code value} rebuilt with the classes of {@code loader}; immutable JDK values as they are. */
    static Object copy(Object value, ClassLoader loader) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                || value instanceof Instant || value instanceof Enum<?> e && e.getClass().getClassLoader() == loader) {
            return value;
        }
        if (value instanceof Optional<?> optional) { // not Serializable itself: its content crosses
            return optional.map(content -> copy(content, loader));
        }
        try {
            return read(write(value), loader);
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("A value of " + value.getClass().getName()
                    + " could not cross between the console and the engine: " + e, e);
        }
    }

    /** The engine's exception as the console's classes can hold it. */
    private Throwable copyThrowable(Throwable failure) {
        try {
            return (Throwable) read(write(failure), console);
        } catch (IOException | ClassNotFoundException | RuntimeException notOurs) {
            StringBuilder chain = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                chain.append(chain.length() == 0 ? "" : "; caused by ").append(t);
            }
            IllegalStateException copy = new IllegalStateException(chain.toString());
            copy.setStackTrace(failure.getStackTrace());
            return copy;
        }
    }

    private static byte[] write(Object value) throws IOException {
        if (!(value instanceof Serializable)) {
            throw new java.io.NotSerializableException(value.getClass().getName());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private static Object read(byte[] bytes, ClassLoader loader) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new LoaderInput(new ByteArrayInputStream(bytes), loader)) {
            in.setObjectInputFilter(OURS_AND_THE_JDKS);
            return in.readObject();
        }
    }

    @Override
    public String toString() {
        return "engine service " + target + " (by value)";
    }

    /** Resolves each class of the stream in one class loader: the receiving side's. */
    private static final class LoaderInput extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderInput(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
