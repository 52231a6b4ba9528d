package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Install and uninstall arguments refused before anything is read or written (the full
 * install/uninstall runs are {@link InstallCommandIT}, with HOME in a temp dir).
 */
class InstallCommandTest {
    @TempDir
    Path project;

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("install", "cursor", null, "--host must be claude, cowork or codex"),
                Arguments.of("install", "claude", "global", "--scope must be project or user, not 'global'"),
                Arguments.of("install", "cowork", "project", "Cowork honours only user settings (~/.claude/settings.json)"),
                Arguments.of("uninstall", "gemini", null, "--host must be claude, cowork or codex"),
                Arguments.of("uninstall", "cowork", "project", "Cowork honours only user settings"));
    }

    @ParameterizedTest(name = "{0} --host {1} --scope {2}")
    @MethodSource("refused")
    void command_badHostOrScope_exit2AndNothingWritten(String command, String host, String scope, String message) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = scope == null
                ? new String[] {command, "--host", host, "--project-dir", project.toString(), "--no-train"}
                : new String[] {command, "--host", host, "--scope", scope, "--project-dir", project.toString(), "--no-train"};
        if (command.equals("uninstall")) {
            args = java.util.Arrays.stream(args).filter(a -> !a.equals("--no-train")).toArray(String[]::new);
        }

        int code = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(message);
        assertThat(out.toString()).isEmpty();
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files).isEmpty();
        }
    }
}
