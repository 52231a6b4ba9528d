package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden install --host opencode} and {@code uninstall} through the jar: the bridge plugin
 * written whole into {@code .opencode/plugin/}, naming no path of this machine (it is committed: it
 * finds {@code warden} on PATH), and removed exactly as written.
 */
class OpenCodeInstallIT {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [bash]}
            platforms:
              opencode:
                pre_tool_use: [no-verify]
            """;

    @TempDir
    Path tmp;

    private JarProject jar;
    private Path project;
    private Path plugin;

    @BeforeEach
    void dirs() throws Exception {
        jar = new JarProject(tmp, MANIFEST);
        project = jar.project;
        plugin = project.resolve(".opencode/plugin/warden-bridge.js");
    }

    @Test
    void install_writesThePortableBridge_andUninstallRemovesExactlyIt() throws Exception {
        WardenProcess.Result r = warden("install", "--host", "opencode", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("installed 1 hook(s) for opencode").contains("added tool.execute.before");
        String launcher = WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString();
        assertThat(Files.readString(plugin)).contains("const LAUNCHER = null;").contains("const IF_MISSING = \"block\";")
                .doesNotContain(launcher).contains("const BOUND = new Set([\"tool.execute.before\"]);");
        assertThat(r.stdout()).contains("run `warden` from PATH");
        assertThat(warden("install", "--host", "opencode", "--no-train").exitCode()).as("idempotent").isZero();

        WardenProcess.Result u = warden("uninstall", "--host", "opencode");

        assertThat(u.exitCode()).as(u.stderr()).isZero();
        assertThat(u.stdout()).contains("removed Warden hooks for [tool.execute.before]");
        assertThat(plugin).doesNotExist();
        assertThat(project.resolve(".opencode")).as("install created it; nothing else is in it").doesNotExist();
    }

    /** A bridge the user edited is theirs: uninstall leaves it, install refuses to overwrite it. */
    @Test
    void uninstall_afterTheUserEditedTheBridge_leavesIt() throws Exception {
        assertThat(warden("install", "--host", "opencode", "--no-train").exitCode()).isZero();
        Files.writeString(plugin, Files.readString(plugin) + "// my change\n");

        WardenProcess.Result u = warden("uninstall", "--host", "opencode");
        WardenProcess.Result again = warden("install", "--host", "opencode", "--no-train");

        assertThat(u.stdout()).contains("no Warden hooks in").contains("kept");
        assertThat(Files.readString(plugin)).endsWith("// my change\n");
        assertThat(again.exitCode()).isNotZero();
        assertThat(again.stderr()).contains("not the bridge Warden writes").contains("[plugin_not_wardens]");
        assertThat(Files.readString(plugin)).endsWith("// my change\n");
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return jar.warden(args);
    }
}
