package dev.agentwarden.server;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.io.CacheDir;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code serve.json}: how a client finds and authenticates to a running {@code warden serve}, as
 * {@code {"port": P, "token": T, "pid": N}}, owner-only (0600), in the Warden cache directory
 * ({@code $WARDEN_CACHE_DIR}, else {@code $XDG_CACHE_HOME/agent-warden}, else
 * {@code ~/.cache/agent-warden}). One file per cache directory: a second server replaces it.
 */
public final class ServeState {
    private ServeState() {
    }

    /** A fresh bearer token: 32 random bytes as hex. */
    public static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public static Path file(Map<String, String> env) {
        return CacheDir.root(env).resolve("serve.json");
    }

    /** Writes the file atomically, created with mode 0600 before any secret is in it. */
    public static void write(Path file, int port, String token, long pid) throws IOException {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("port", (long) port);
        state.put("token", token);
        state.put("pid", pid);
        writeOwnerOnly(file, Json.write(state) + "\n");
    }

    /** Replaces {@code file} atomically with {@code text} in a file that is 0600 from its creation. */
    static void writeOwnerOnly(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        AtomicWrite.write(file, text.getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-------"));
    }

    /** Deletes the file if it still names {@code token} (a later server may have replaced it). */
    public static void removeIfOurs(Path file, String token) {
        try {
            Map<String, Object> state = Json.parseObject(Files.readString(file, StandardCharsets.UTF_8));
            if (token.equals(state.get("token"))) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | JsonException e) {
            // gone or not ours to judge: leave it
        }
    }
}
