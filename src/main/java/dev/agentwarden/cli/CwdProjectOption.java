package dev.agentwarden.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --project-dir} for the commands a person runs in a project to set it up (install,
 * uninstall, trust): the project given, else the current directory, never a hook's environment.
 */
final class CwdProjectOption {
    @Option(names = "--project-dir", description = "Project root (default: current directory).")
    Path dir;

    /** The project root, absolute and normalized. */
    Path root() {
        return (dir != null ? dir : Path.of("")).toAbsolutePath().normalize();
    }
}
