package dev.agentwarden.server;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.io.HookProjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment one host HTTP hook event is judged in, built only from what that event carries:
 * the project its URL is bound to ({@code /project/<id>/...}, an id {@code warden install
 * --transport http} wrote to {@link HookProjects}) and the payload's {@code cwd}, which must lie
 * inside that project. The resident is shared by every session of its user, so nothing of the
 * environment of the session that happened to start it (its host's project variable, its
 * {@code WARDEN_*} settings, its capture directory, its fail mode, its secrets) decides, records or
 * reaches another session's event: of the resident's own environment only the user's identity
 * ({@link #USER_VARIABLES}) and Warden's state directory ({@code WARDEN_CACHE_DIR}, where the
 * resident, the hook port and the project registry live) are kept.
 */
final class HookCaller {
    /**
     * What a concern process needs to run as this user, the same for every session of the user:
     * never a Warden setting, never a host's session variable.
     */
    static final String[] USER_VARIABLES = {"HOME", "USER", "LOGNAME", "PATH", "SHELL", "LANG", "LC_ALL", "LC_CTYPE",
            "TMPDIR", "TZ", "WARDEN_CACHE_DIR"};
    /** Warden's own project variable (it outranks every host's), set to the bound root. */
    static final String PROJECT_VARIABLE = "WARDEN_PROJECT_DIR";

    private HookCaller() {
    }

    /** The bound project and the caller to judge the event with, or why the event must be refused. */
    record Bound(Path root, Caller caller, String refusal) {
        static Bound refused(String why) {
            return new Bound(null, null, why);
        }
    }

    /**
     * The caller of an event sent to the URL bound to {@code projectId}, whose payload names
     * {@code cwd}; refused when the id is bound to no project this user installed, or when
     * {@code cwd} is missing or outside that project (both compared as real paths).
     */
    static Bound bind(Path residentDir, String projectId, String cwd, Map<String, String> residentEnv) {
        Path root = HookProjects.root(residentDir, projectId);
        if (root == null) {
            return Bound.refused("this HTTP hook's URL names project " + projectId + ", which warden install"
                    + " --transport http did not bind for this user; re-run it in the project");
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return Bound.refused("the project this HTTP hook is bound to (" + root + ") is gone");
        }
        if (!realRoot.equals(root)) {
            return Bound.refused("the project this HTTP hook is bound to (" + root + ") now resolves to " + realRoot
                    + "; re-run warden install --transport http in the project");
        }
        if (cwd == null || cwd.isEmpty()) {
            return Bound.refused("the event names no cwd, so it cannot be checked against the project its hook is"
                    + " bound to (" + root + ")");
        }
        Path realCwd;
        try {
            Path given = Path.of(cwd);
            if (!given.isAbsolute() || !Files.isDirectory(given)) {
                return Bound.refused("the event's cwd '" + cwd + "' is not an existing absolute directory");
            }
            realCwd = given.toRealPath();
        } catch (IOException | RuntimeException e) {
            return Bound.refused("the event's cwd '" + cwd + "' cannot be resolved");
        }
        if (!realCwd.startsWith(realRoot)) {
            return Bound.refused("the event's cwd " + realCwd + " is outside " + realRoot
                    + ", the project this HTTP hook is bound to; each project's hooks judge only its own events");
        }
        Map<String, String> env = environment(realRoot, residentEnv);
        return new Bound(realRoot, Caller.forwarded(env, realCwd), null);
    }

    /** The per-event environment: the user's identity from {@code residentEnv}, and the bound project. */
    static Map<String, String> environment(Path realRoot, Map<String, String> residentEnv) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : USER_VARIABLES) {
            String v = residentEnv.get(name);
            if (v != null) {
                env.put(name, v);
            }
        }
        env.put(PROJECT_VARIABLE, realRoot.toString());
        return Map.copyOf(env);
    }
}
