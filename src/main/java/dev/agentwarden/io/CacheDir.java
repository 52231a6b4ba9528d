package dev.agentwarden.io;

import java.nio.file.Path;
import java.util.Map;

/**
 * Warden's per-user cache directory: {@code $WARDEN_CACHE_DIR}, else
 * {@code $XDG_CACHE_HOME/agent-warden}, else {@code ~/.cache/agent-warden} with {@code ~} as
 * bin/warden reads it: {@code $HOME}, then (unset or not absolute) the JVM's {@code user.home}, the
 * passwd entry. An empty variable counts as unset. Compiled manifests, {@code serve.json} and the resident server's endpoint live
 * under it.
 */
public final class CacheDir {
    private CacheDir() {
    }

    public static Path root(Map<String, String> env) {
        String dir = env.get("WARDEN_CACHE_DIR");
        if (dir != null && !dir.isEmpty()) {
            return Path.of(dir);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        String home = env.get("HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
                : Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"), ".cache");
        return base.resolve("agent-warden");
    }
}
