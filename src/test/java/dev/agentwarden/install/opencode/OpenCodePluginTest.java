package dev.agentwarden.install.opencode;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.PluginFile;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.opencode.OpenCodeSetup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bridge plugin as install writes it and uninstall removes it: Warden's own file, whole. */
class OpenCodePluginTest {
    private static final List<Binding> BINDINGS = List.of(new Binding("tool.execute.before", "*"),
            new Binding("event.subagent.created", null), new Binding("event.subagent.idle", null));

    @TempDir
    Path dir;

    private final Installer project = OpenCodeSetup.OPENCODE.installer(Host.Scope.PROJECT);

    @Test
    void install_writesTheLauncherByAbsolutePath_andOnlyTheBoundEvents() throws Exception {
        String text = new String(project.install(new byte[0], HookLauncher.plain("/opt/warden/bin/warden"), BINDINGS), StandardCharsets.UTF_8);
        assertThat(text).contains("const LAUNCHER = \"/opt/warden/bin/warden\";")
                .contains("const HOST = \"opencode\";")
                .contains("const BOUND = new Set([\"tool.execute.before\",\"event.subagent.created\",\"event.subagent.idle\"]);")
                .doesNotContain("@@");
        assertThat(project.installedEvents(text.getBytes(StandardCharsets.UTF_8)))
                .containsExactly("tool.execute.before", "event.subagent.created", "event.subagent.idle");
    }

    /** A launcher path with a quote or backslash cannot break out of the string literal. */
    @Test
    void install_launcherWithQuotes_isAJsonStringLiteral() throws Exception {
        String text = new String(project.install(new byte[0], HookLauncher.plain("/tmp/a\"b\\c/bin/warden"), BINDINGS), StandardCharsets.UTF_8);
        assertThat(text).contains("const LAUNCHER = \"/tmp/a\\\"b\\\\c/bin/warden\";");
    }

    @Test
    void install_overAFileWardenDidNotWrite_isRefused() {
        byte[] theirs = "export const Mine = async () => ({})\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> project.install(theirs, HookLauncher.plain("/w/bin/warden"), BINDINGS)).isInstanceOf(SettingsException.class)
                .hasMessageContaining("not the bridge Warden writes");
    }

    @Test
    void uninstall_afterAHandEdit_leavesTheFile() throws Exception {
        byte[] ours = project.install(new byte[0], HookLauncher.plain("/w/bin/warden"), BINDINGS);
        byte[] edited = (new String(ours, StandardCharsets.UTF_8) + "// mine\n").getBytes(StandardCharsets.UTF_8);
        assertThat(project.uninstall(ours)).isEmpty();
        assertThat(project.uninstall(edited)).isEqualTo(edited);
        assertThat(project.installedEvents(edited)).isEmpty();
        assertThat(project.lookalikes(edited)).hasSize(1);
    }

    /** Install creates .opencode/plugin/ and the file; uninstall removes exactly those, and keeps a user's file beside it. */
    @Test
    void installThenUninstall_removesExactlyWhatInstallCreated() throws Exception {
        Path root = Files.createDirectories(dir.resolve("proj"));
        Path file = project.settingsFile(root, Map.of());
        PluginFile plugin = new PluginFile(file, dir.resolve("locks"), root);
        plugin.update(doc -> project.install(doc, HookLauncher.plain("/w/bin/warden"), BINDINGS));
        assertThat(file).exists();
        Files.writeString(root.resolve(".opencode/opencode.json"), "{}");
        List<Path> removed = new ArrayList<>();
        plugin.updateAndTidy(project::uninstall, removed);
        assertThat(file).doesNotExist();
        assertThat(root.resolve(".opencode/plugin")).doesNotExist();
        assertThat(root.resolve(".opencode/opencode.json")).as("not Warden's").exists();
        assertThat(removed).extracting(p -> p.getFileName().toString()).contains(OpenCodePlugin.FILE_NAME, "plugin");
    }

    @Test
    void uninstall_whenThePluginDirectoryExistedBefore_keepsIt() throws Exception {
        Path root = Files.createDirectories(dir.resolve("proj"));
        Files.createDirectories(root.resolve(".opencode/plugin"));
        Files.writeString(root.resolve(".opencode/plugin/other.js"), "export const O = async () => ({})\n");
        Path file = project.settingsFile(root, Map.of());
        PluginFile plugin = new PluginFile(file, dir.resolve("locks"), root);
        plugin.update(doc -> project.install(doc, HookLauncher.plain("/w/bin/warden"), BINDINGS));
        plugin.updateAndTidy(project::uninstall, new ArrayList<>());
        assertThat(file).doesNotExist();
        assertThat(root.resolve(".opencode/plugin/other.js")).exists();
    }

    /** A planted link at .opencode/plugin leading out of the project is refused, and nothing is written outside. */
    @Test
    void install_throughASymlinkedPluginDirectory_isRefused() throws Exception {
        Path root = Files.createDirectories(dir.resolve("proj"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createDirectories(root.resolve(".opencode"));
        Files.createSymbolicLink(root.resolve(".opencode/plugin"), outside);
        PluginFile plugin = new PluginFile(project.settingsFile(root, Map.of()), dir.resolve("locks"), root);
        assertThatThrownBy(() -> plugin.update(doc -> project.install(doc, HookLauncher.plain("/w/bin/warden"), BINDINGS)))
                .isInstanceOf(SettingsException.class);
        assertThat(outside.resolve(OpenCodePlugin.FILE_NAME)).doesNotExist();
    }
}
