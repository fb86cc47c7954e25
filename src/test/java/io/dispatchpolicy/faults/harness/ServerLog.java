package io.dispatchpolicy.faults.harness;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * WildFly's {@code server.log} in the fault server's base directory. WildFly appends to it across
 * restarts, so a window of it is addressed by byte offsets ({@link #mark()}): each run's part, or
 * what was logged while the database was down.
 */
public final class ServerLog {

    private final Path file;

    public ServerLog(Path file) {
        this.file = file;
    }

    /** The current end of the log. */
    public long mark() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines written between two marks. */
    public List<String> linesBetween(long from, long to) {
        return Arrays.asList(new String(read(from, to), StandardCharsets.UTF_8).split("\n", -1)).stream()
                .filter(line -> !line.isEmpty()).toList();
    }

    /** Copies the part between two marks to {@code target}. */
    public void copy(long from, long to, Path target) {
        try {
            Files.createDirectories(target.getParent());
            Files.write(target, read(from, to));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] read(long from, long to) {
        if (!Files.exists(file) || to <= from) {
            return new byte[0];
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] bytes = new byte[Math.toIntExact(Math.min(to, raf.length()) - from)];
            raf.seek(from);
            raf.readFully(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
