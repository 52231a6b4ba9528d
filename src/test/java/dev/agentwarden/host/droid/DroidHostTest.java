package dev.agentwarden.host.droid;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.droid.DroidSetup;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Factory Droid 0.225.2 as a host: its captured payloads normalize to the one event, its installer
 * owns the top-level events of {@code .factory/hooks.json}, its capability table is what the binary
 * did, and its gate reports {@code hooksDisabled} and {@code allowManagedHooksOnly}.
 */
class DroidHostTest {
    private static final Host DROID = Hosts.byId("droid");
    private static final String LAUNCHER = "/opt/warden/bin/warden";
    private static final List<Installer.Binding> BINDINGS = List.of(new Installer.Binding("PreToolUse", "*"),
            new Installer.Binding("SessionStart", null));

    private static HookEvent normalize(String capture) {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("droid-0.225.2/" + capture));
        String nativeEvent = DROID.adapter().nativeEventOf(payload);
        return DROID.adapter().normalize(nativeEvent, DROID.defaultAliases().get(nativeEvent), payload,
                Json.write(payload).getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    @Test
    void registry_namesDroid_underItsAliasToo() {
        assertThat(Hosts.KNOWN).contains("droid");
        assertThat(Hosts.byId("factory")).isSameAs(DROID);
        assertThat(Hosts.unknown("factory")).isNull();
        assertThat(DROID.projectDirVariables()).containsExactly("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR",
                "CLAUDE_PROJECT_DIR");
        assertThat(Hosts.projectDirVariables()).contains("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR");
    }

    @Test
    void execute_isTheShell_andItsCommandIsNormalized() {
        HookEvent e = normalize("deny-02-PreToolUse.json");
        assertThat(e.event()).isEqualTo(EventName.PRE_TOOL_USE);
        assertThat(e.toolName()).isEqualTo("Execute");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("rm -rf /home/dev/proj/victim");
        assertThat(e.sessionId()).isEqualTo("87612380-5eba-4b1c-8d5a-723d06d10b36");
        assertThat(normalize("allow-01-SessionStart.json").sessionSource()).isEqualTo("startup");
        assertThat(normalize("allow-04-Stop.json").event()).isEqualTo(EventName.STOP);
        assertThat(normalize("allow-05-SessionEnd.json").event()).isEqualTo(EventName.SESSION_END);
        assertThat(normalize("allow-03-PostToolUse.json").event()).isEqualTo(EventName.POST_TOOL_USE);
    }

    @Test
    void capabilities_areWhatTheBinaryDid() {
        assertThat(DROID.capability("PreToolUse")).isEqualTo(new Capability(true, false, false));
        assertThat(DROID.capability("SessionStart")).isEqualTo(new Capability(false, true, false));
        assertThat(DROID.capability("PostToolUse")).isEqualTo(new Capability(false, true, false));
        assertThat(DROID.capability("Stop")).isEqualTo(new Capability(false, false, false));
        assertThat(DROID.capability("SubagentStop")).isEqualTo(new Capability(false, false, false));
    }

    @Test
    void stopBlock_isANote_neverDecisionBlock_whichDroidLoopsOnWithoutLimit() {
        HostResponse r = DROID.adapter().render("Stop", new Verdict(Verdict.Kind.BLOCK, "not done", null));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).doesNotContain("\"decision\"").contains("systemMessage");
        assertThat(r.stderr()).contains("block downgraded to context on Stop");
    }

    @Test
    void halt_onPreToolUse_isContinueFalse_andADeny() {
        HostResponse r = DROID.adapter().render("PreToolUse", new Verdict(Verdict.Kind.HALT, "stop now", null));
        Map<String, Object> out = Json.parseObject(r.stdout());
        assertThat(out).containsEntry("continue", false);
        assertThat(out.get("hookSpecificOutput").toString()).contains("permissionDecision=deny");
    }

    @Test
    void ask_onPreToolUse_isRefused_becauseDroidExecIgnoresAsk() {
        HostResponse r = DROID.adapter().render("PreToolUse", new Verdict(Verdict.Kind.ASK, "sure?", null));
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
    }

    @Test
    void install_writesEventsAtTheTopLevel_keepsTheUsersBytes_andUninstallRestoresThem() throws Exception {
        Installer installer = DroidSetup.DROID.installer(Host.Scope.PROJECT);
        assertThat(installer.settingsFile(Path.of("/p"), Map.of())).isEqualTo(Path.of("/p/.factory/hooks.json"));
        assertThat(DroidSetup.DROID.installer(Host.Scope.USER).settingsFile(Path.of("/p"), Map.of("HOME", "/h")))
                .isEqualTo(Path.of("/h/.factory/hooks.json"));
        String users = "{\n  \"PreToolUse\": [ {\"matcher\": \"Execute\", \"hooks\": [{\"type\": \"command\","
                + " \"command\": \"./mine.sh\"}]} ],\n  \"hooksDisabled\": false\n}\n";
        byte[] installed = installer.install(users.getBytes(StandardCharsets.UTF_8), HookLauncher.plain(LAUNCHER), BINDINGS);
        Map<String, Object> doc = Json.parseObject(new String(installed, StandardCharsets.UTF_8));
        assertThat(doc).doesNotContainKey("hooks").containsKeys("PreToolUse", "SessionStart", "hooksDisabled");
        assertThat((List<?>) doc.get("PreToolUse")).hasSize(2);
        assertThat(installer.installedEvents(installed)).containsExactly("PreToolUse", "SessionStart");
        assertThat(installer.entries(installed)).extracting(Installer.Entry::target)
                .containsExactly(LAUNCHER + " dispatch --host droid --native-event PreToolUse",
                        LAUNCHER + " dispatch --host droid --native-event SessionStart");
        assertThat(installer.install(installed, HookLauncher.plain(LAUNCHER), BINDINGS)).isEqualTo(installed);
        assertThat(new String(installer.uninstall(installed), StandardCharsets.UTF_8)).isEqualTo(users);
    }

    @Test
    void recognition_isExact_aLookalikeAndAHooksWrapperStayTheUsers() throws Exception {
        Installer installer = DroidSetup.DROID.installer(Host.Scope.PROJECT);
        String doc = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" + LAUNCHER
                + " dispatch --host droid --native-event Stop\", \"timeout\": 60}]}]},\n \"Stop\": [{\"hooks\":"
                + " [{\"type\": \"command\", \"command\": \"X=1 " + LAUNCHER + " dispatch --host droid --native-event Stop\","
                + " \"timeout\": 60}]}]}\n";
        byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
        assertThat(installer.installedEvents(bytes)).isEmpty();
        assertThat(installer.uninstall(bytes)).isEqualTo(bytes);
        assertThat(installer.lookalikes(bytes)).hasSize(1).allSatisfy(l -> assertThat(l).startsWith("Stop: X=1"));
    }

    @Test
    void install_refusesAnEventThatIsNotAList() {
        Installer installer = DroidSetup.DROID.installer(Host.Scope.PROJECT);
        assertThatThrownBy(() -> installer.install("{\"PreToolUse\": {}}".getBytes(StandardCharsets.UTF_8), HookLauncher.plain(LAUNCHER),
                BINDINGS)).isInstanceOf(SettingsException.class).hasMessageContaining("PreToolUse is an object");
    }


    @Test
    void ungovernedHosts_sayWhy_insteadOfUnknownHost() {
        for (String id : List.of("continue", "crush", "amp", "kiro", "goose")) {
            assertThat(Hosts.unknown(id)).as(id).contains("cannot be governed by Warden yet").doesNotContain("unknown host");
            assertThat(Hosts.byId(id)).isNull();
        }
        assertThat(Hosts.unknown("continue")).contains("never calls them");
    }
}
