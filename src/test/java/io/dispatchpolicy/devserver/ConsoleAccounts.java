package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Puts console accounts into the server's {@code application-users.properties} and
 * {@code application-roles.properties} (WildFly's {@code ApplicationRealm}, which the console's
 * security domain uses), in the form {@code add-user.sh -a} writes:
 * {@code user=HEX(MD5(user:ApplicationRealm:password))}. Other accounts in the files are kept; these
 * users' lines are replaced. Faster than starting {@code add-user.sh} for every test server.
 */
public final class ConsoleAccounts {

    public static final String REALM = "ApplicationRealm";

    /** An account: its password and role ({@code dispatch-admin}, {@code dispatch-operator} or {@code dispatch-viewer}). */
    public record Account(String password, String role) {
    }

    private ConsoleAccounts() {
    }

    public static void write(Path configurationDir, Map<String, Account> accounts) {
        Map<String, String> users = new java.util.TreeMap<>();
        Map<String, String> roles = new java.util.TreeMap<>();
        accounts.forEach((user, account) -> {
            users.put(user, digest(user, account.password()));
            roles.put(user, account.role().equals("dispatch-admin") ? "dispatch-admin,dispatch-viewer" : account.role());
        });
        merge(configurationDir.resolve("application-users.properties"), users, "#$REALM_NAME=" + REALM + "$");
        merge(configurationDir.resolve("application-roles.properties"), roles, null);
    }

    private static void merge(Path file, Map<String, String> entries, String header) {
        try {
            List<String> lines = new ArrayList<>(Files.exists(file) ? Files.readAllLines(file) : List.of());
            if (header != null && lines.stream().noneMatch(line -> line.startsWith("#$REALM_NAME="))) {
                lines.add(0, header);
            }
            lines.removeIf(line -> entries.keySet().stream().anyMatch(user -> line.startsWith(user + "=")));
            entries.forEach((user, value) -> lines.add(user + "=" + value));
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String digest(String user, String password) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] hash = md5.digest((user + ":" + REALM + ":" + password).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
