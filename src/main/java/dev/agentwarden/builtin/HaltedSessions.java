package dev.agentwarden.builtin;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Host sessions the integrity gate halted at start, so the halt can be enforced on the session's
 * later events too. Claude Code in {@code -p} mode ignores {@code continue: false} from a
 * SessionStart hook but honours it from UserPromptSubmit; the marker carries the halt there.
 *
 * <p>One file per halted session under {@code <state home>/state/integrity/halted/}, named by the
 * first 24 hex of SHA-256(host session id) (raw ids are never written), holding the halt reason.
 * Derived state: the evidence log stays the record.
 */
final class HaltedSessions {
    static final String RELATIVE = "state/integrity/halted";
    /** Longest reason read back from a marker. */
    private static final int MAX_REASON_BYTES = 16 * 1024;

    private final Path root;
    private final Path dir;

    HaltedSessions(Path stateHome) {
        Path home = stateHome.toAbsolutePath().normalize();
        this.root = home.getParent() == null ? home : home.getParent();
        this.dir = home.resolve(RELATIVE);
    }

    /** Records a halt for a host session, replacing any earlier one; no link is followed, none left the project. */
    void record(String hostSessionId, String reason) throws IOException {
        StateFiles.replace(root, marker(hostSessionId), reason.getBytes(StandardCharsets.UTF_8));
    }

    /** Forgets a host session's halt (a later start of the same session passed the gate). */
    void clear(String hostSessionId) throws IOException {
        StateFiles.delete(root, marker(hostSessionId));
    }

    /** The recorded halt reason, or {@code null} when the session was not halted. */
    String reason(String hostSessionId) throws IOException {
        Path marker = marker(hostSessionId);
        try {
            return new String(StateFiles.readAll(marker, MAX_REASON_BYTES, false), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (UnsafeFileException e) {
            // a marker Warden did not write as such still halts: the safe reading of a halt marker
            return "integrity halt (marker " + marker + " unreadable: " + e.getMessage() + ")";
        }
    }

    Path marker(String hostSessionId) {
        return dir.resolve(Sha256.hex(hostSessionId.getBytes(StandardCharsets.UTF_8)).substring(0, 24) + ".halt");
    }
}
