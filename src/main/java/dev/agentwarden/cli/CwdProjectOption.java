package dev.agentwarden.cli;

import dev.agentwarden.event.WorkspaceRoot;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --project-dir} for the commands a person runs in a project to set it up (install,
 * uninstall, trust, init, test, replay, doctor): the project given, else the project the current
 * directory is in ({@link WorkspaceRoot}: the nearest {@code .warden/}, else the git work tree's root,
 * else the current directory), never a hook's environment.
 */
final class CwdProjectOption {
    @Option(names = "--project-dir", description = "Project root (default: the nearest directory up from here"
            + " holding .warden/, else the git work tree's root, else the current directory).")
    Path dir;

    /** The project root, absolute and normalized. */
    Path root() {
        return dir != null ? dir.toAbsolutePath().normalize() : cwdProject();
    }

    /** The project the current directory is in: the nearest {@code .warden/} up, else the git work tree's root, else it. */
    static Path cwdProject() {
        return Path.of(WorkspaceRoot.resolve(null, Map.of(), homeOnly(), Path.of("").toAbsolutePath(), List.of()))
                .toAbsolutePath().normalize();
    }

    /** Of the environment, only {@code HOME} (whose {@code .warden/} is not the project of a directory below it). */
    private static Map<String, String> homeOnly() {
        String home = System.getenv("HOME");
        return home == null ? Map.of() : Map.of("HOME", home);
    }
}
