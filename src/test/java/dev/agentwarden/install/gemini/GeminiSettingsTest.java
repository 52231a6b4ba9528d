package dev.agentwarden.install.gemini;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.gemini.GeminiSetup;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Warden's entries in Gemini's {@code settings.json}: the nested shape with a named handler, its timeout in ms. */
class GeminiSettingsTest {
    private static final String LAUNCHER = "/opt/warden/bin/warden";
    private static final List<Installer.Binding> BINDINGS = List.of(new Installer.Binding("BeforeTool", "*"),
            new Installer.Binding("AfterAgent", null));
    private final Installer project = GeminiSetup.GEMINI.installer(Host.Scope.PROJECT);

    @Test
    void settingsFile_perScope_isGeminisOwn() {
        assertThat(project.settingsFile(Path.of("/proj"), Map.of())).isEqualTo(Path.of("/proj/.gemini/settings.json"));
        assertThat(GeminiSetup.GEMINI.installer(Host.Scope.USER).settingsFile(Path.of("/proj"), Map.of("HOME", "/home/u")))
                .isEqualTo(Path.of("/home/u/.gemini/settings.json"));
    }

    @Test
    void install_emptySettings_writesNamedHandlerWithTimeoutInMilliseconds() throws Exception {
        byte[] after = project.install(bytes("{}"), HookLauncher.plain(LAUNCHER), BINDINGS);
        assertThat(Json.parse(new String(after, StandardCharsets.UTF_8))).isEqualTo(Json.parse("{\"hooks\":{"
                + "\"BeforeTool\":[{\"matcher\":\"*\",\"hooks\":[{\"name\":\"warden\",\"type\":\"command\","
                + "\"command\":\"/opt/warden/bin/warden dispatch --host gemini --native-event BeforeTool\",\"timeout\":60000}]}],"
                + "\"AfterAgent\":[{\"hooks\":[{\"name\":\"warden\",\"type\":\"command\","
                + "\"command\":\"/opt/warden/bin/warden dispatch --host gemini --native-event AfterAgent\",\"timeout\":60000}]}]}}"));
        assertThat(project.installedEvents(after)).containsExactly("BeforeTool", "AfterAgent");
    }

    @Test
    void install_twice_isIdempotentAndUninstallRestoresTheUsersBytes() throws Exception {
        String mine = "{\n  \"model\": {\"name\": \"gemini-2.5-flash\"},\n  \"hooks\": {\n    \"BeforeTool\": [\n"
                + "      {\"matcher\": \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}\n"
                + "    ]\n  }\n}\n";
        byte[] once = project.install(bytes(mine), HookLauncher.plain(LAUNCHER), BINDINGS);
        byte[] twice = project.install(once, HookLauncher.plain(LAUNCHER), BINDINGS);
        assertThat(twice).isEqualTo(once);
        assertThat(new String(project.uninstall(twice), StandardCharsets.UTF_8)).isEqualTo(mine);
    }

    @Test
    void install_claudeShapedEntryInGeminiSettings_isTheUsersLookalike() throws Exception {
        String claudeShaped = "{\"hooks\":{\"BeforeTool\":[{\"hooks\":[{\"type\":\"command\",\"command\":"
                + "\"/opt/warden/bin/warden dispatch --host gemini --native-event BeforeTool\",\"timeout\":60}]}]}}";
        assertThat(project.installedEvents(bytes(claudeShaped))).isEmpty();
        assertThat(project.lookalikes(bytes(claudeShaped))).hasSize(1);
        assertThat(new String(project.uninstall(bytes(claudeShaped)), StandardCharsets.UTF_8)).isEqualTo(claudeShaped);
    }

    @Test
    void install_hooksNotAnObject_isRefusedAndLeftAlone() {
        assertThatThrownBy(() -> project.install(bytes("{\"hooks\": []}"), HookLauncher.plain(LAUNCHER), BINDINGS))
                .isInstanceOf(SettingsException.class).hasMessageContaining("not an object of events");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
