package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@code warden uninstall} cleaning up after {@code install}, and {@code uninstall --all}, through the jar. */
@Execution(ExecutionMode.CONCURRENT)
class UninstallAllIT {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [Bash]}
            platforms:
              claude: {pre_tool_use: [no-verify]}
              codex: {pre_tool_use: [no-verify]}
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use}
              codex: {PreToolUse: pre_tool_use}
            """;
    private static final String USERS = "{\n  \"model\": \"opus\"\n}\n";

    @TempDir
    Path tmp;

    private JarProject jar;
    private Path project;
    private Path home;

    @BeforeEach
    void dirs() throws Exception {
        jar = new JarProject(tmp, MANIFEST);
        project = jar.project;
        home = jar.home;
        jar.with("CODEX_HOME", home.resolve(".codex").toString());
        CompiledHook.seed(tmp.resolve("cache")); // user-scope installs find it built, as after an earlier install
    }

    @Test
    void uninstall_fileInstallCreated_removesItItsDirectoryAndTheLock() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        assertThat(project.resolve(".claude/settings.json")).exists();
        assertThat(locks()).as("the lock lives in Warden's cache, never in the project").isNotEmpty();

        WardenProcess.Result r = warden("uninstall", "--host", "claude");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("removed " + project.resolve(".claude/settings.json") + " (install created it");
        assertThat(project.resolve(".claude")).doesNotExist();
        assertThat(locks()).isEmpty();
    }

    @Test
    void uninstall_fileTheUserHad_staysWithTheirBytes() throws Exception {
        Path settings = Files.writeString(Files.createDirectories(project.resolve(".claude")).resolve("settings.json"), USERS);
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        assertThat(warden("uninstall", "--host", "claude").exitCode()).isZero();

        assertThat(Files.readString(settings)).isEqualTo(USERS);
        assertThat(locks()).isEmpty();
    }

    @Test
    void uninstall_all_removesWardenFromEveryHostAndScope() throws Exception {
        Path userClaude = Files.writeString(Files.createDirectories(home.resolve(".claude")).resolve("settings.json"), USERS);
        for (String[] hs : List.of(new String[] {"claude", "project"}, new String[] {"claude", "user"},
                new String[] {"codex", "project"}, new String[] {"codex", "user"})) {
            WardenProcess.Result i = warden("install", "--host", hs[0], "--scope", hs[1], "--no-train");
            assertThat(i.exitCode()).as(i.stderr()).isZero();
        }

        WardenProcess.Result r = warden("uninstall", "--all");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("from " + project.resolve(".claude/settings.json"))
                .contains("from " + userClaude).contains("from " + project.resolve(".codex/hooks.json"))
                .contains("from " + home.resolve(".codex/hooks.json"));
        assertThat(Files.readString(userClaude)).isEqualTo(USERS);
        assertThat(project.resolve(".claude")).doesNotExist();
        assertThat(project.resolve(".codex")).doesNotExist();
        assertThat(home.resolve(".codex/hooks.json")).doesNotExist();
        WardenProcess.Result again = warden("uninstall", "--all");
        assertThat(again.stdout()).startsWith("no Warden hooks in ");
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(userClaude), "claude")).isEmpty();
    }

    @Test
    void uninstall_allWithHost_isAUsageErrorThatSaysWhatToGive() throws Exception {
        WardenProcess.Result r = warden("uninstall", "--all", "--host", "claude");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("give --host H [--scope S], or --all alone");
    }

    private List<Path> locks() throws Exception {
        Path dir = tmp.resolve("cache/locks");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return jar.warden(args);
    }
}
