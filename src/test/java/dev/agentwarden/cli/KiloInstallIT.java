package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden install --host kilo}, {@code doctor} and {@code uninstall} through the jar: the
 * bridge written into {@code .kilo/plugin/} dispatching as {@code kilo}, Kilo's plugin gate reported,
 * and the bridge removed exactly as written.
 */
class KiloInstallIT {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [bash, background_process]}
            platforms:
              kilo:
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
        plugin = project.resolve(".kilo/plugin/warden-bridge.js");
    }

    /** On main before this change `--host kilo` was no host at all; now it writes Kilo's own plugin file. */
    @Test
    void install_writesTheBridgeIntoKilosPluginDir_andUninstallRemovesExactlyIt() throws Exception {
        WardenProcess.Result r = warden(Map.of(), "install", "--host", "kilo", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("installed 1 hook(s) for kilo").contains("added tool.execute.before")
                .contains("unless it runs with --pure").contains("@kilocode/plugin");
        assertThat(Files.readString(plugin)).contains("const HOST = \"kilo\";")
                .contains("const BOUND = new Set([\"tool.execute.before\"]);");
        assertThat(project.resolve(".opencode")).doesNotExist();

        WardenProcess.Result u = warden(Map.of(), "uninstall", "--host", "kilo");

        assertThat(u.exitCode()).as(u.stderr()).isZero();
        assertThat(u.stdout()).contains("removed Warden hooks for [tool.execute.before]");
        assertThat(plugin).doesNotExist();
        assertThat(project.resolve(".kilo")).as("install created it; nothing else is in it").doesNotExist();
    }

    /** Under KILO_PURE Kilo loads no plugin: install warns and doctor reports a problem, not a quiet pass. */
    @Test
    void doctor_underKiloPure_saysTheBridgeWillNotRun() throws Exception {
        assertThat(warden(Map.of(), "install", "--host", "kilo", "--no-train").exitCode()).isZero();

        WardenProcess.Result d = warden(Map.of("KILO_PURE", "1"), "doctor", "--host", "kilo", "--scope", "project");

        assertThat(d.stdout() + d.stderr()).contains("KILO_PURE is set").contains("unset KILO_PURE");
        assertThat(d.exitCode()).isNotZero();
    }

    private WardenProcess.Result warden(Map<String, String> extra, String... args) throws Exception {
        return jar.warden(extra, args);
    }
}
