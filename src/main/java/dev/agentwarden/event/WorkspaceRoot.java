package dev.agentwarden.event;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The one root resolver every state reader and writer uses, so a reader never looks at a
 * different {@code .warden/} than the writer: explicit project dir, then the payload's
 * {@code workspace_root} / {@code project_root}, then {@code WARDEN_PROJECT_DIR}, then the hosts'
 * project-directory variables (every known host's, at dispatch as in every other command), then
 * {@code payload.cwd}, then the process working directory.
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
        String chosen = choose(explicitDir, payload, env, projectDirVariables);
        if (workingDir == null) {
            return chosen != null ? chosen : Path.of("").toAbsolutePath().toString();
        }
        return chosen != null ? workingDir.resolve(chosen).toString() : workingDir.toString();
    }

    private static String choose(String explicitDir, Map<String, Object> payload, Map<String, String> env,
                                 List<String> projectDirVariables) {
        if (nonEmpty(explicitDir)) {
            return explicitDir;
        }
        for (String key : new String[] {"workspace_root", "project_root"}) {
            if (payload.get(key) instanceof String s && nonEmpty(s)) {
                return s;
            }
        }
        String own = env.get("WARDEN_PROJECT_DIR");
        if (nonEmpty(own)) {
            return own;
        }
        for (int i = 0; i < projectDirVariables.size(); i++) {
            String v = env.get(projectDirVariables.get(i));
            if (nonEmpty(v)) {
                return v;
            }
        }
        if (payload.get("cwd") instanceof String s && nonEmpty(s)) {
            return s;
        }
        return null;
    }

    /** The {@code .warden} directory under a resolved root. */
    public static Path stateHome(String root) {
        return Path.of(root, ".warden");
    }

    private static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }
}
