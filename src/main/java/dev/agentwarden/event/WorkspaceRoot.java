package dev.agentwarden.event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The one root resolver every state reader and writer uses, so a reader never looks at a
 * different {@code .warden/} than the writer (docs/project-root.md). The first that applies:
 * <ol>
 *   <li>the explicit project dir ({@code --project-dir});</li>
 *   <li>the payload's {@code workspace_root} / {@code project_root};</li>
 *   <li>{@code WARDEN_PROJECT_DIR};</li>
 *   <li>the hosts' project-directory variables (every known host's, at dispatch as in every other
 *       command): the nearest directory holding a {@code .warden/} from the start directory (the
 *       payload's {@code cwd}, else the working directory) up to the named directory when the start
 *       is inside it (a package of a monorepo), else the named directory;</li>
 *   <li>the nearest directory holding a {@code .warden/}, walking up from the start directory; a
 *       {@code .warden/} in the user's home directory or at the filesystem root counts only when the
 *       walk starts there;</li>
 *   <li>the nearest directory holding {@code .git} (a git work tree's root; no git process runs);</li>
 *   <li>the start directory itself.</li>
 * </ol>
 * So a command or hook started in {@code proj/src/deep} acts on {@code proj}, and never creates state below it.
 */
public final class WorkspaceRoot {
    private WorkspaceRoot() {
    }

    public static String resolve(String explicitDir, Map<String, Object> payload, Map<String, String> env,
                                 List<String> projectDirVariables) {
        return resolve(explicitDir, payload, env, null, projectDirVariables);
    }

    /**
     * The root as seen from {@code workingDir}: a relative choice is resolved against it, and it is
     * the last resort. {@code null} means this process's working directory (relative choices stay
     * relative to it).
     *
     * @param projectDirVariables the host's variables naming the project, strongest first
     */
    public static String resolve(String explicitDir, Map<String, Object> payload, Map<String, String> env,
                                 Path workingDir, List<String> projectDirVariables) {
        String chosen = named(explicitDir, payload, env);
        if (chosen != null) {
            return against(workingDir, chosen);
        }
        String start = payload.get("cwd") instanceof String s && nonEmpty(s) ? against(workingDir, s)
                : workingDir == null ? Path.of("").toAbsolutePath().toString() : workingDir.toString();
        Path home = home(env);
        String hostDir = null;
        for (int i = 0; i < projectDirVariables.size() && hostDir == null; i++) {
            String v = env.get(projectDirVariables.get(i));
            if (nonEmpty(v)) {
                hostDir = against(workingDir, v);
            }
        }
        if (hostDir != null) {
            // the host named the project: a nearer .warden/ counts only inside it (a package of a monorepo)
            Path bound = normalized(hostDir);
            Path from = normalized(start);
            Path warden = bound != null && from != null && from.startsWith(bound)
                    ? nearestHolding(start, STATE_DIR, home, bound) : null;
            return warden != null ? warden.toString() : hostDir;
        }
        Path warden = nearestHolding(start, STATE_DIR, home, null);
        if (warden != null) {
            return warden.toString();
        }
        Path git = nearestHolding(start, ".git", null, null);
        return git != null ? git.toString() : start;
    }

    /** The root named outright: the explicit dir, the payload's own root keys, {@code WARDEN_PROJECT_DIR}; or {@code null}. */
    private static String named(String explicitDir, Map<String, Object> payload, Map<String, String> env) {
        if (nonEmpty(explicitDir)) {
            return explicitDir;
        }
        for (String key : new String[] {"workspace_root", "project_root"}) {
            if (payload.get(key) instanceof String s && nonEmpty(s)) {
                return s;
            }
        }
        String own = env.get("WARDEN_PROJECT_DIR");
        return nonEmpty(own) ? own : null;
    }

    /** {@code dir} read against {@code workingDir}; relative stays relative when there is none. */
    private static String against(Path workingDir, String dir) {
        return workingDir == null ? dir : workingDir.resolve(dir).toString();
    }

    private static final String STATE_DIR = ".warden";

    /** Directories walked up at most, so a path of absurd depth costs a bounded number of stats. */
    private static final int MAX_DEPTH = 64;

    /**
     * The nearest of {@code start} and its ancestors holding an entry {@code name} (a directory for
     * {@code .warden}; a directory or a worktree's file for {@code .git}), or {@code null}; the walk
     * passes {@code home} and the filesystem root without looking in them unless it starts or ends
     * there (a stray {@code /.warden} or {@code ~/.warden} would otherwise capture every project below
     * it), and stops after {@code last} when that is not {@code null}.
     */
    private static Path nearestHolding(String start, String name, Path home, Path last) {
        Path dir = normalized(start);
        boolean first = true;
        for (int depth = 0; dir != null && depth < MAX_DEPTH; depth++) {
            boolean isLast = dir.equals(last);
            if (first || isLast || (home == null || !dir.equals(home)) && dir.getParent() != null) {
                Path entry = dir.resolve(name);
                if (STATE_DIR.equals(name) ? Files.isDirectory(entry) : Files.exists(entry)) {
                    return dir;
                }
            }
            if (isLast) {
                return null;
            }
            first = false;
            dir = dir.getParent();
        }
        return null;
    }

    /** {@code dir} absolute and normalized, or {@code null} when it is not a path. */
    private static Path normalized(String dir) {
        try {
            return Path.of(dir).toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The user's home directory ({@code $HOME}, else the JVM's), normalized; {@code null} when unknown. */
    private static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        if (!nonEmpty(home)) {
            home = System.getProperty("user.home");
        }
        try {
            return nonEmpty(home) ? Path.of(home).toAbsolutePath().normalize() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The {@code .warden} directory under a resolved root. */
    public static Path stateHome(String root) {
        return Path.of(root, ".warden");
    }

    private static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }
}
