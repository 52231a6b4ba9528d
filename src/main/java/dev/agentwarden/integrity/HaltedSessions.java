package dev.agentwarden.integrity;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.manifest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

    private final Path dir;

    HaltedSessions(Path stateHome) {
        this.dir = stateHome.resolve(RELATIVE);
    }

    /** Records a halt for a host session, replacing any earlier one. */
    void record(String hostSessionId, String reason) throws IOException {
        Files.createDirectories(dir);
        AtomicWrite.write(marker(hostSessionId), reason.getBytes(StandardCharsets.UTF_8));
    }

    /** Forgets a host session's halt (a later start of the same session passed the gate). */
    void clear(String hostSessionId) throws IOException {
        Files.deleteIfExists(marker(hostSessionId));
    }

    /** The recorded halt reason, or {@code null} when the session was not halted. */
    String reason(String hostSessionId) throws IOException {
        Path marker = marker(hostSessionId);
        try {
            if (Files.size(marker) > MAX_REASON_BYTES) {
                return "integrity halt (reason over " + MAX_REASON_BYTES + " bytes not shown; see " + marker + ")";
            }
            return new String(Files.readAllBytes(marker), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    Path marker(String hostSessionId) {
        return dir.resolve(Sha256.hex(hostSessionId.getBytes(StandardCharsets.UTF_8)).substring(0, 24) + ".halt");
    }
}
