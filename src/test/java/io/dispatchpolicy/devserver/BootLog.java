package io.dispatchpolicy.devserver;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;

/**
 * WildFly's {@code server.log} from one boot on. WildFly appends to it across restarts, so what this
 * boot said starts where the file ended before it; unless the log was rotated at boot (renamed to
 * {@code server.log.<date>}), in which case the file is another one and all of it is this boot's.
 */
public final class BootLog {

    /** WildFly started; with errors (a failed deployment, a port in use). */
    public static final String STARTED = "WFLYSRV0025";
    public static final String STARTED_WITH_ERRORS = "WFLYSRV0026";

    private final Path file;
    private final Object fileKey;
    private final long start;

    private BootLog(Path file, Object fileKey, long start) {
        this.file = file;
        this.fileKey = fileKey;
        this.start = start;
    }

    /** Marks the end of {@code file} (it need not exist yet): call before starting the server. */
    public static BootLog mark(Path file) {
        BasicFileAttributes attributes = attributes(file);
        return attributes == null ? new BootLog(file, null, 0) : new BootLog(file, attributes.fileKey(), attributes.size());
    }

    public Path file() {
        return file;
    }

    /** The lines written since the mark. */
    public List<String> lines() {
        BasicFileAttributes now = attributes(file);
        if (now == null) {
            return List.of();
        }
        boolean sameFile = fileKey != null && Objects.equals(fileKey, now.fileKey()) && now.size() >= start;
        long from = sameFile ? start : 0;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] bytes = new byte[Math.toIntExact(raf.length() - Math.min(from, raf.length()))];
            raf.seek(from);
            raf.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static BasicFileAttributes attributes(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
