package dev.agentwarden.cli;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * {@code warden doctor --ack}: the time up to which the decision log's errors are acknowledged, one
 * ISO-8601 instant in {@code .warden/state/doctor-ack} of the project. An acknowledged error is
 * listed as a note and no longer fails {@code doctor}; a newer one still does.
 */
final class ErrorAck {
    /** The file's name under the project's {@code .warden/state/}. */
    static final String FILE = "doctor-ack";
    /** The most the file is read of: an instant is ~30 bytes. */
    private static final int MAX_BYTES = 256;

    private ErrorAck() {
    }

    /** What {@link #read} found: the acknowledged time, or {@code null} with why not when the file is unusable. */
    record Read(Instant upTo, String problem) {
    }

    /** Whether a decision stamped {@code ts} (ISO-8601) is at or before {@code upTo}; an unreadable stamp is not. */
    static boolean covers(Instant upTo, String ts) {
        if (upTo == null) {
            return false;
        }
        try {
            return !Instant.parse(ts).isAfter(upTo);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static Path file(Path root) {
        return WorkspaceRoot.stateHome(root.toString()).resolve("state").resolve(FILE);
    }

    /** Records {@code now} as the time errors are acknowledged up to (replacing the file whole; no link followed). */
    static void record(Path root, Instant now) throws IOException {
        StateFiles.replace(root, file(root), (now.toString() + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The acknowledged time of the project at {@code root}; an absent file is no acknowledgement and no problem. */
    static Read read(Path root) {
        Path f = file(root);
        try {
            String text = new String(StateFiles.readAll(f, MAX_BYTES, false), StandardCharsets.UTF_8).strip();
            return new Read(Instant.parse(text), null);
        } catch (NoSuchFileException e) {
            return new Read(null, null);
        } catch (IOException | DateTimeParseException e) {
            return new Read(null, f + " is not usable (" + e.getMessage() + "); ignored: `warden doctor --ack` rewrites it");
        }
    }
}
