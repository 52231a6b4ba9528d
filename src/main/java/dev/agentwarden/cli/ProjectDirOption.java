package dev.agentwarden.cli;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.host.Hosts;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --project-dir}: the project whose {@code .warden/} a command reads or writes. Without it,
 * the root dispatch would resolve ({@link WorkspaceRoot}), so a command looks where the hooks wrote.
 */
final class ProjectDirOption {
    @Option(names = "--project-dir", paramLabel = "DIR", description = "Project root (default: the one hooks use: "
            + "$WARDEN_PROJECT_DIR, else the nearest directory up from here holding .warden/, else $CLAUDE_PROJECT_DIR, ...,"
            + " else the git work tree's root, else the current directory).")
    Path dir;

    String root() {
        return root(System.getenv());
    }

    /** The project root as resolved in {@code env}. */
    String root(Map<String, String> env) {
        return WorkspaceRoot.resolve(dir == null ? null : dir.toString(), Map.of(), env, Hosts.projectDirVariables());
    }

    Path stateHome() {
        return WorkspaceRoot.stateHome(root());
    }
}
