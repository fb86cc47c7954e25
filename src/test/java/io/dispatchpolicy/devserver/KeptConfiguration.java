package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The run directory's server configuration. Copied from the build once; from then on it is the
 * operator's: a {@code jboss-cli} change must survive the next run, so it is never overwritten unless
 * asked for ({@link RunSettings#RESET_CONFIG}, or deleting the directory). It remembers a hash of the
 * build's {@code standalone.xml} it came from, so a later build with a different configuration is
 * noticed and the operator told how to take it.
 */
public final class KeptConfiguration {

    /** Beside the kept configuration, so deleting the directory forgets it too. */
    static final String BUILD_HASH_FILE = "dispatch-build-standalone.xml.sha256";
    /** The start of the line printed when the build's configuration is newer than the kept one. */
    public static final String BUILD_CHANGED = "WARNING: the build's server configuration changed";

    /** What {@link #prepare} did. */
    public enum Outcome {
        /** The run directory had no configuration: the build's was copied. */
        COPIED,
        /** Asked for: the kept configuration was replaced by the build's. */
        RESET,
        /** The kept configuration is used; it came from the build's current one. */
        KEPT,
        /** The kept configuration is used although the build's differs from the one it came from. */
        KEPT_BUILD_CHANGED
    }

    /** The outcome and the line to print about it, if any. */
    public record Prepared(Outcome outcome, Optional<String> message) {
    }

    private KeptConfiguration() {
    }

    /**
     * @param build the build's {@code standalone/configuration}
     * @param kept  the run directory's, which WildFly runs with
     * @param reset replace {@code kept} with {@code build} even if it exists
     */
    public static Prepared prepare(Path build, Path kept, boolean reset) {
        String buildHash = sha256(build.resolve("standalone.xml"));
        Path hashFile = kept.resolve(BUILD_HASH_FILE);
        if (reset || !Files.exists(kept.resolve("standalone.xml"))) {
            Trees.delete(kept);
            Trees.copy(build, kept);
            write(hashFile, buildHash);
            return reset
                    ? new Prepared(Outcome.RESET, Optional.of("Server configuration reset to the build's (" + RunSettings.RESET_CONFIG
                            + "); data and logs are kept."))
                    : new Prepared(Outcome.COPIED, Optional.of("Server configuration copied from the build to " + kept
                            + "; kept from now on, with your changes."));
        }
        if (!Files.exists(hashFile)) {
            // A run directory from before configurations were kept: it was refreshed from the build at
            // its last start, so the build's current configuration is the best guess of its origin.
            write(hashFile, buildHash);
            return new Prepared(Outcome.KEPT, Optional.empty());
        }
        if (read(hashFile).equals(buildHash)) {
            return new Prepared(Outcome.KEPT, Optional.empty());
        }
        return new Prepared(Outcome.KEPT_BUILD_CHANGED, Optional.of(BUILD_CHANGED + " since " + kept
                + " was copied from it; the kept one, with your changes, is used. To take the build's: "
                + RunSettings.RESET_CONFIG + "=true ./mvnw -Prun verify (or delete that directory); data and logs are kept."));
    }

    static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String hash) {
        try {
            Files.writeString(file, hash + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
