package dev.agentwarden.ledger;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UserState;
import dev.agentwarden.json.Json;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A copy of the chain's position kept outside the project, in the user's own state
 * ({@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden/anchors/<sha256 of the project's real
 * path>.json}, file 0600, directories 0700). {@code warden ledger anchor} writes it; {@code ledger
 * verify} then requires the chain to still hold the anchored line with the anchored hash at the
 * anchored position. Since every line's {@code prev} is the hash of the line before it, that line
 * pins the whole history up to it: a history rewritten with a recomputed chain, or deleted, fails.
 * It proves nothing about lines appended after the anchor, and nothing against someone who can
 * write the user's own state directory.
 *
 * <p>An anchor file or directory that is not owned by this user, or that group or others may
 * write, is refused, as is a link.
 *
 * @param project    the project's real path
 * @param segment    month of the anchored line's segment
 * @param line       its physical line number in that segment
 * @param hash       its SHA-256
 * @param chainLines chain lines up to and including it
 * @param ts         when the anchor was written
 */
public record LedgerAnchor(String project, String segment, long line, String hash, long chainLines, String ts) {
    private static final int MAX_BYTES = 4096;
    private static final String CODE_PREFIX = "anchor";

    /** Where the anchor of a project lives. */
    public static Path fileFor(Path projectRealPath, Map<String, String> env) {
        String key = Sha256.hex(projectRealPath.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 32);
        return UserState.home(env).resolve("anchors").resolve(key + ".json");
    }

    /** The anchor at {@code file}, or {@code null} when there is none; refuses one that others could have written. */
    public static LedgerAnchor read(Path file) throws IOException {
        Path dir = file.getParent();
        try {
            UserState.requirePrivate(dir, true, CODE_PREFIX);
            UserState.requirePrivate(file, false, CODE_PREFIX);
        } catch (NoSuchFileException e) {
            return null;
        }
        Map<String, Object> o = LedgerLine.parseState(StateFiles.readAll(file, MAX_BYTES, false));
        if (o == null || !(o.get("project") instanceof String p) || !(o.get("segment") instanceof String s)
                || !TokenShape.isSegment(s) || !(o.get("line") instanceof Long n) || n < 1
                || !(o.get("hash") instanceof String h) || !TokenShape.isLowerHex(h, 64)
                || !(o.get("chain_lines") instanceof Long c) || !(o.get("ts") instanceof String ts)) {
            throw new LedgerException("ledger_anchor_invalid", file + " is not a valid ledger anchor");
        }
        return new LedgerAnchor(p, s, n, h, c, ts);
    }

    /** Writes this anchor to {@code file}, creating its directory 0700; the file is 0600. */
    public void write(Path file) throws IOException {
        UserState.ensurePrivateDirectory(file.toAbsolutePath().getParent(), CODE_PREFIX);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("project", project);
        o.put("segment", segment);
        o.put("line", line);
        o.put("hash", hash);
        o.put("chain_lines", chainLines);
        o.put("ts", ts);
        AtomicWrite.write(file, (Json.write(o) + "\n").getBytes(StandardCharsets.UTF_8), UserState.FILE_MODE);
    }
}
