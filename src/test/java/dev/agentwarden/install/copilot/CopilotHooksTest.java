package dev.agentwarden.install.copilot;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warden's entries in a Copilot CLI hooks file: exact, idempotent, the user's entries untouched. */
class CopilotHooksTest {
    private static final String LAUNCHER = "/opt/warden/bin/warden";
    private static final List<Binding> BINDINGS = List.of(new Binding("preToolUse", "bash|task"),
            new Binding("subagentStart", null), new Binding("subagentStop", null));

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    @SuppressWarnings("unchecked")
    void install_emptyFile_writesVersionOneAndCopilotsEntryShape() throws Exception {
        byte[] doc = CopilotHooks.install(b("{}\n"), HookLauncher.plain(LAUNCHER), BINDINGS);
        Map<String, Object> o = Json.parseObject(s(doc));
        assertThat(o.get("version")).isEqualTo(1L);
        Map<String, Object> hooks = (Map<String, Object>) o.get("hooks");
        assertThat(hooks).containsOnlyKeys("preToolUse", "subagentStart", "subagentStop");
        assertThat(((List<Object>) hooks.get("preToolUse")).get(0)).isEqualTo(Map.of("type", "command",
                "bash", LAUNCHER + " dispatch --host copilot --native-event preToolUse", "timeoutSec", 60L, "matcher", "bash|task"));
        assertThat(((List<Object>) hooks.get("subagentStart")).get(0)).isEqualTo(Map.of("type", "command",
                "bash", LAUNCHER + " dispatch --host copilot --native-event subagentStart", "timeoutSec", 60L));
        assertThat(CopilotHooks.installedEvents(doc)).containsExactly("preToolUse", "subagentStart", "subagentStop");
    }

    /** Copilot 1.0.102 reads matcher as a regular expression: "*" matches no tool, so every tool is no matcher (measured). */
    @Test
    @SuppressWarnings("unchecked")
    void install_everyToolMatcher_writesNoMatcher() throws Exception {
        byte[] doc = CopilotHooks.install(b("{}"), HookLauncher.plain(LAUNCHER), List.of(new Binding("preToolUse", "*")));
        Map<String, Object> entry = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) Json.parseObject(s(doc))
                .get("hooks")).get("preToolUse")).get(0);
        assertThat(entry).doesNotContainKey("matcher");
        assertThat(CopilotHooks.installedEvents(doc)).containsExactly("preToolUse");
        assertThat(s(CopilotHooks.uninstall(doc))).isEqualTo("{}");
    }

    @Test
    void installThenUninstall_givesBackTheBytesFromBefore_andInstallIsIdempotent() throws Exception {
        for (String before : List.of("{}\n", "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\"type\": \"command\", \"bash\": \"./mine.sh\"}\n    ]\n  }\n}\n")) {
            byte[] once = CopilotHooks.install(b(before), HookLauncher.plain(LAUNCHER), BINDINGS);
            assertThat(s(CopilotHooks.install(once, HookLauncher.plain(LAUNCHER), BINDINGS))).as("idempotent").isEqualTo(s(once));
            assertThat(s(CopilotHooks.uninstall(once))).as("exact uninstall").isEqualTo(before);
        }
    }

    @Test
    void install_keepsTheUsersEntriesAndLookalikes_byteForByte() throws Exception {
        String mine = "{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"bash\":\"env X=1 /opt/warden/bin/warden"
                + " dispatch --host copilot --native-event preToolUse\",\"timeoutSec\":60}]}}";
        byte[] doc = CopilotHooks.install(b(mine), HookLauncher.plain(LAUNCHER), BINDINGS);
        assertThat(s(doc)).contains("env X=1 /opt/warden/bin/warden");
        assertThat(CopilotHooks.lookalikes(doc)).containsExactly(
                "hooks.preToolUse: env X=1 /opt/warden/bin/warden dispatch --host copilot --native-event preToolUse");
        assertThat(s(CopilotHooks.uninstall(doc))).isEqualTo(mine);
    }

    @Test
    void install_unknownVersionOrHooksNotAnObject_isRefused() {
        assertThatThrownBy(() -> CopilotHooks.install(b("{\"version\":2}"), HookLauncher.plain(LAUNCHER), BINDINGS))
                .isInstanceOf(SettingsException.class).hasMessageContaining("not 1");
        assertThatThrownBy(() -> CopilotHooks.install(b("{\"version\":1,\"hooks\":[]}"), HookLauncher.plain(LAUNCHER), BINDINGS))
                .isInstanceOf(SettingsException.class).hasMessageContaining("not an object");
        assertThatThrownBy(() -> CopilotHooks.install(b("{\"version\":1,\"hooks\":{\"preToolUse\":{}}}"), HookLauncher.plain(LAUNCHER), BINDINGS))
                .isInstanceOf(SettingsException.class).hasMessageContaining("not a list");
    }

    @Test
    void hooksFile_projectAndUserPaths_andOnlyNativeNamesAreWritten(@TempDir Path dir) {
        CopilotHooksFile project = new CopilotHooksFile(false);
        CopilotHooksFile user = new CopilotHooksFile(true);
        assertThat(project.settingsFile(dir, Map.of())).isEqualTo(dir.resolve(".github/hooks/warden.json"));
        assertThat(user.settingsFile(dir, Map.of("HOME", "/home/u"))).isEqualTo(Path.of("/home/u/.copilot/hooks/warden.json"));
        assertThat(user.settingsFile(dir, Map.of("HOME", "/home/u", "COPILOT_HOME", "/c"))).isEqualTo(Path.of("/c/hooks/warden.json"));
        assertThat(project.writes("preToolUse")).isTrue();
        assertThat(project.writes("PreToolUse")).as("the VS Code name would run the hook twice").isFalse();
    }

    @Test
    void settingsFile_corruptHooksFile_isRefusedAndLeftAsItWas(@TempDir Path dir) throws Exception {
        Path file = Files.createDirectories(dir.resolve(".github/hooks")).resolve("warden.json");
        Files.writeString(file, "{\"version\":1,");
        SettingsFile settings = new SettingsFile(file, dir.resolve("locks"), dir);
        assertThatThrownBy(() -> settings.update(d -> CopilotHooks.install(d, HookLauncher.plain(LAUNCHER), BINDINGS)))
                .isInstanceOf(SettingsException.class);
        assertThat(Files.readString(file)).isEqualTo("{\"version\":1,");
        List<Path> removed = new ArrayList<>();
        Files.delete(file);
        settings.update(d -> CopilotHooks.install(d, HookLauncher.plain(LAUNCHER), BINDINGS));
        settings.updateAndTidy(CopilotHooks::uninstall, removed);
        assertThat(file).as("a file install created and uninstall emptied is removed").doesNotExist();
    }
}
