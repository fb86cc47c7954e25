package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Writes console accounts into the server's {@code dispatch-users.properties} and
 * {@code dispatch-roles.properties}, in the form Elytron's properties realm {@code DispatchRealm}
 * reads (what WildFly's {@code add-user.sh} writes): {@code user=HEX(MD5(user:realm:password))}.
 */
public final class ConsoleAccounts {

    public static final String REALM = "DispatchRealm";

    /** An account: its password and role ({@code dispatch-admin} or {@code dispatch-viewer}). */
    public record Account(String password, String role) {
    }

    private ConsoleAccounts() {
    }

    public static void write(Path configurationDir, Map<String, Account> accounts) {
        StringBuilder users = new StringBuilder("#$REALM_NAME=" + REALM + "$ written by the dispatch dev server\n");
        StringBuilder roles = new StringBuilder("# written by the dispatch dev server\n");
        accounts.forEach((user, account) -> {
            users.append(user).append('=').append(digest(user, account.password())).append('\n');
            String granted = account.role().equals("dispatch-admin") ? "dispatch-admin,dispatch-viewer" : account.role();
            roles.append(user).append('=').append(granted).append('\n');
        });
        try {
            Files.writeString(configurationDir.resolve("dispatch-users.properties"), users);
            Files.writeString(configurationDir.resolve("dispatch-roles.properties"), roles);
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
