package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.io.CacheDir;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Refuses tool calls by which the governed agent would change Warden's own trust or hooks: a shell
 * command running a Warden subcommand that writes trust or hooks ({@code warden trust}, {@code init},
 * {@code install}, {@code uninstall}: {@link WardenSelfChange}), and a file edit (a path the event's
 * {@code filePaths} names: Claude Code's Write, Edit, MultiEdit, NotebookEdit, and every file a patch
 * envelope names, as Codex's, OpenCode's and Cline's {@code apply_patch} send it) whose target lies
 * under Warden's state directory
 * ({@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden}, the trust store's home), its cache
 * directory ({@link CacheDir}), or is a host's own file: one its installers write, in the project or
 * the home directory, or one its {@link Host#ownFiles} names (hook settings, hook files, trust files,
 * Warden's bridge plugin, wherever they lie).
 *
 * <p>Best effort: an agent that runs code as the user can write those files by other means; this
 * closes the direct routes and tells the user to make such changes themselves. Paths are compared
 * as written (relative ones against the event's working directory), without following links.
 */
final class ProtectWarden implements Concern {

    static final String PREFIX = "Warden's own trust and hooks are the user's to change: ";

    static final String ASK_USER = "ask the user to run it themselves, in their own terminal";

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        HookEvent event = context.event();
        String reason = null;
        if (event.shellCommand() != null) {
            reason = WardenSelfChange.reasonFor(event.shellCommand());
        }
        for (int i = 0; reason == null && i < event.filePaths().size(); i++) {
            reason = reasonForPath(event.filePaths().get(i), event.cwd() != null ? event.cwd() : event.workspaceRoot(),
                    context.env());
        }
        return reason == null ? ConcernResult.allow() : ConcernResult.block(reason);
    }

    /** Why editing {@code path} (relative to {@code cwd}) changes Warden's trust or hooks, or {@code null}. */
    static String reasonForPath(String path, String cwd, Map<String, String> env) {
        Path target;
        try {
            target = resolve(path, cwd, env);
        } catch (InvalidPathException e) {
            return null;
        }
        String what;
        if (target.startsWith(stateDir(env))) {
            what = "Warden's state directory (its trust store)";
        } else if (target.startsWith(CacheDir.root(env).toAbsolutePath().normalize())) {
            what = "Warden's cache directory (its compiled manifests and server endpoint)";
        } else {
            what = hostFile(target, env);
        }
        return what == null ? null : PREFIX + HookBypass.quote(path) + " is " + what
                + "; ask the user to make the change themselves, in their own terminal";
    }

    /**
     * How a person names {@code target} when it is a host's own file ({@link Host#ownFiles}: Claude
     * Code's {@code .claude/settings*.json}, a Cline hook file, Gemini CLI's trust files, Codex's
     * {@code config.toml}, …), a file a host's trust gate reads where the environment puts it
     * ({@code $CODEX_HOME/config.toml}, {@code $COPILOT_HOME/config.json}), or a file some host's
     * installer writes ({@link Host#setupFiles}), else {@code null}.
     */
    static String hostFile(Path target, Map<String, String> env) {
        for (int h = 0; h < Hosts.ALL.size(); h++) {
            String what = Hosts.ALL.get(h).ownFile(target);
            if (what != null) {
                return what;
            }
        }
        String gated = gateFile(target, env);
        return gated != null ? gated : hostSettings(target, env);
    }

    /**
     * {@code "Codex's trust in its hooks"} when {@code target} is a file some host's trust gate reads
     * ({@link SetupFileLocation#decidesTrust}), else null.
     */
    static String gateFile(Path target, Map<String, String> env) {
        for (int h = 0; h < Hosts.ALL.size(); h++) {
            Host host = Hosts.ALL.get(h);
            if (host.isSetupFile(target, env, true)) {
                return host.displayName() + "'s trust in its hooks (a file that decides whether it runs them)";
            }
        }
        return null;
    }

    /**
     * {@code "Qwen Code's hook settings"} when {@code target} is a file some host's installer writes
     * (a project-scope file in any project, a user-scope file where that host's home puts it), else null.
     */
    static String hostSettings(Path target, Map<String, String> env) {
        for (int h = 0; h < Hosts.ALL.size(); h++) {
            Host host = Hosts.ALL.get(h);
            if (host.isSetupFile(target, env, false)) {
                return host.displayName() + "'s hook settings";
            }
        }
        return null;
    }

    private static Path resolve(String path, String cwd, Map<String, String> env) {
        Path p;
        if (path.equals("~") || path.startsWith("~/")) {
            p = Path.of(home(env) + path.substring(1));
        } else {
            p = Path.of(path);
            if (!p.isAbsolute()) {
                p = (cwd != null && !cwd.isEmpty() ? Path.of(cwd) : Path.of("")).toAbsolutePath().resolve(p);
            }
        }
        return p.normalize();
    }

    /** {@code $XDG_STATE_HOME/agent-warden} when that is absolute, else {@code ~/.local/state/agent-warden}. */
    static Path stateDir(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        Path state = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(home(env), ".local", "state");
        return state.resolve("agent-warden").normalize();
    }

    private static String home(Map<String, String> env) {
        String home = env.get("HOME");
        return home != null && home.startsWith("/") ? home : System.getProperty("user.home");
    }
}
