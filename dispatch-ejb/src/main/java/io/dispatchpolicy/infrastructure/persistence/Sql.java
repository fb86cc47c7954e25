package io.dispatchpolicy.infrastructure.persistence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A statement written once, by name: its parameters are named ({@code :policy}), and the SQL it shares
 * with other statements comes in as named fragments ({@code {{lockOrder}}}, filled by {@link #with}), so
 * nobody counts question marks or binds the same value twice. It is parsed once, where it is declared
 * (a {@code static final}); what JDBC receives is the same text with a {@code ?} per parameter, every
 * time, so the driver and the server prepare and reuse it as before (generic plans included).
 *
 * <p>A name follows one colon; PostgreSQL's casts ({@code ::text}), quoted text, quoted identifiers and
 * comments are left alone. A bare {@code ?} is refused: one statement speaks one style. A statement with
 * variants ({@link #template}) runs only once {@link #with} has filled every fragment.
 */
public final class Sql {

    private final String source;
    private final String jdbc;
    private final List<String> positions;
    private final Set<String> names;
    private final List<String> unfilled = new ArrayList<>();

    private Sql(String source) {
        this.source = source;
        List<String> found = new ArrayList<>();
        this.jdbc = parse(source, found, unfilled);
        this.positions = List.copyOf(found);
        this.names = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(found));
    }

    /** @throws IllegalArgumentException for a bare {@code ?}, or a fragment left unfilled */
    public static Sql of(String source) {
        Sql sql = new Sql(source);
        if (!sql.unfilled.isEmpty()) {
            throw new IllegalArgumentException("Fragments " + sql.unfilled + " are not filled (use Sql.template and with):\n" + source);
        }
        return sql;
    }

    /** A statement some of whose fragments its variants fill ({@link #with}); it runs only once they all are. */
    public static Sql template(String source) {
        return new Sql(source);
    }

    /** This statement with the fragment {@code {{name}}} filled by {@code sql} (which may name parameters too). */
    public Sql with(String name, String sql) {
        String placeholder = "{{" + name + "}}";
        if (!source.contains(placeholder)) {
            throw new IllegalArgumentException("The statement has no fragment " + placeholder + ":\n" + source);
        }
        return new Sql(source.replace(placeholder, sql));
    }

    /** The text as JDBC prepares it: one {@code ?} per parameter, in order. */
    public String jdbc() {
        if (!unfilled.isEmpty()) {
            throw new IllegalStateException("Fragments " + unfilled + " are not filled:\n" + source);
        }
        return jdbc;
    }

    /** The parameter's name at each {@code ?} of {@link #jdbc()}, in order (a name used twice comes twice). */
    public List<String> positions() {
        return positions;
    }

    /** The distinct parameter names, in order of first use. */
    public Set<String> names() {
        return names;
    }

    @Override
    public String toString() {
        return jdbc;
    }

    private static String parse(String sql, List<String> names, List<String> unfilled) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closing(sql, i, c);
                out.append(sql, i, end);
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(sql, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                out.append(sql, i, end);
                i = end;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < n && Character.isJavaIdentifierStart(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < n && Character.isJavaIdentifierPart(sql.charAt(end))) {
                    end++;
                }
                names.add(sql.substring(i + 1, end));
                out.append('?');
                i = end;
            } else if (c == '?') {
                throw new IllegalArgumentException("A bare ? in a statement with named parameters (use :name):\n" + sql);
            } else if (c == '{' && sql.startsWith("{{", i) && sql.indexOf("}}", i) > 0) {
                int end = sql.indexOf("}}", i) + 2;
                unfilled.add(sql.substring(i + 2, end - 2));
                out.append(sql, i, end);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index after the quote that closes the one at {@code start} (a doubled quote is part of the text). */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}
