package dev.agentwarden.cli;

import dev.agentwarden.decision.ProjectRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Which decisions a view of the decision log reads ({@code report}, {@code dashboard}): {@code --since},
 * {@code --all-projects} and {@code --utc}, resolved to the first instant and the project roots.
 */
final class DecisionWindow {
    @Option(names = "--since", paramLabel = "AGE|DATE",
            description = "Only decisions since today, an age ago (30m, 2h, 7d) or a date (2026-11-01, local midnight).")
    String since;

    @Option(names = "--all-projects", description = "Every project this user's Warden has written decisions for.")
    boolean allProjects;

    @Option(names = "--utc", description = "Dates of --since at UTC midnight (default: local).")
    boolean utc;

    /** The window: {@code sinceIso} ({@code null} for every decision) and the roots of the projects it covers. */
    record Resolved(String sinceIso, List<String> roots) {
    }

    /**
     * The window the options name, or {@code null} after telling {@code err} ({@code warden COMMAND: …}) why
     * they name none: a {@code --since} that is no age or date, or a project registry that cannot be read.
     */
    Resolved resolve(String command, ProjectDirOption project, Map<String, String> env, Clock clock, PrintWriter err) {
        String sinceIso;
        try {
            sinceIso = since == null ? null : LogCommand.sinceIso(since, clock, utc ? ZoneOffset.UTC : ZoneId.systemDefault());
        } catch (IllegalArgumentException e) {
            err.println("warden " + command + ": " + e.getMessage());
            return null;
        }
        try {
            return new Resolved(sinceIso, LogCommand.projects(allProjects, project, env));
        } catch (IOException e) {
            err.println("warden " + command + ": cannot read the project registry " + ProjectRegistry.file(env) + ": "
                    + e.getMessage());
            return null;
        }
    }
}
