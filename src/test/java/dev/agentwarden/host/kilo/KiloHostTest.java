package dev.agentwarden.host.kilo;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.PluginFile;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict.Kind;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kilo Code as a host of its own: OpenCode's adapter and bridge under the id {@code kilo}, Kilo's
 * plugin directories, its capability table with every downgrade, and the gate Kilo puts in front of
 * plugins.
 */
class KiloHostTest {
    private static final List<Binding> BINDINGS = List.of(new Binding("tool.execute.before", "*"),
            new Binding("chat.message", null));

    @TempDir
    Path dir;

    private final Host kilo = Hosts.byId("kilo");
    private final HostSetup setup = HostSetups.byId("kilo");

    /** On main before this change Kilo was unregistered: `warden install --host kilo` named no host. */
    @Test
    void kilo_isARegisteredHost_withOpenCodesEventsUnderItsOwnId() {
        assertThat(kilo).isSameAs(KiloHost.KILO);
        assertThat(kilo.adapter().id()).isEqualTo("kilo");
        assertThat(kilo.displayName()).isEqualTo("Kilo Code");
        assertThat(kilo.defaultAliases()).isEqualTo(OpenCodeHost.OPENCODE.defaultAliases());
        assertThat(kilo.toolEvents()).isEqualTo(OpenCodeHost.OPENCODE.toolEvents());
        assertThat(setup.defaultScope()).isEqualTo(Host.Scope.PROJECT);
        assertThat(Hosts.KNOWN).contains("kilo");
        assertThat(setup.trustGate()).isNotNull();
    }

    static Stream<Arguments> pluginFiles() {
        return Stream.of(
                Arguments.of(Host.Scope.PROJECT, Map.of(), "/proj/.kilo/plugin/warden-bridge.js"),
                Arguments.of(Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.config/kilo/plugin/warden-bridge.js"),
                Arguments.of(Host.Scope.USER, Map.of("HOME", "/home/u", "XDG_CONFIG_HOME", "/x"), "/x/kilo/plugin/warden-bridge.js"));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("pluginFiles")
    void installer_pluginFile_isInKilosOwnConfigDirectory(Host.Scope scope, Map<String, String> env, String expected) {
        assertThat(setup.installer(scope).settingsFile(Path.of("/proj"), env)).isEqualTo(Path.of(expected));
    }

    @Test
    void install_writesTheBridgeDispatchingAsKilo() throws Exception {
        Installer project = setup.installer(Host.Scope.PROJECT);
        String text = new String(project.install(new byte[0], HookLauncher.plain("/opt/warden/bin/warden"), BINDINGS), StandardCharsets.UTF_8);
        assertThat(text).contains("const HOST = \"kilo\";").contains("Agent Warden's bridge for Kilo Code")
                .contains("`warden install --host kilo`").doesNotContain("@@");
        assertThat(project.installedEvents(text.getBytes(StandardCharsets.UTF_8)))
                .containsExactly("tool.execute.before", "chat.message");
        assertThat(project.describe()).isEqualTo(".kilo/plugin/warden-bridge.js");
        assertThat(setup.installer(Host.Scope.USER).describe()).isEqualTo("~/.config/kilo/plugin/warden-bridge.js");
    }

    /** Install creates .kilo/plugin/ and the bridge; uninstall removes exactly those and keeps what Kilo wrote beside. */
    @Test
    void installThenUninstall_removesExactlyWhatInstallCreated() throws Exception {
        Installer project = setup.installer(Host.Scope.PROJECT);
        Path root = Files.createDirectories(dir.resolve("proj"));
        Path file = project.settingsFile(root, Map.of());
        PluginFile plugin = new PluginFile(file, dir.resolve("locks"), root);
        plugin.update(doc -> project.install(doc, HookLauncher.plain("/w/bin/warden"), BINDINGS));
        assertThat(file).exists();
        Files.writeString(root.resolve(".kilo/.gitignore"), "node_modules\n");
        List<Path> removed = new ArrayList<>();
        plugin.updateAndTidy(project::uninstall, removed);
        assertThat(file).doesNotExist();
        assertThat(root.resolve(".kilo/plugin")).doesNotExist();
        assertThat(root.resolve(".kilo/.gitignore")).as("Kilo's, not Warden's").exists();
    }

    @Test
    void uninstall_afterAHandEdit_leavesTheFile() throws Exception {
        Installer project = setup.installer(Host.Scope.PROJECT);
        byte[] ours = project.install(new byte[0], HookLauncher.plain("/w/bin/warden"), BINDINGS);
        byte[] edited = (new String(ours, StandardCharsets.UTF_8) + "// mine\n").getBytes(StandardCharsets.UTF_8);
        assertThat(project.uninstall(ours)).isEmpty();
        assertThat(project.uninstall(edited)).isEqualTo(edited);
    }

    /** A Kilo plugin is an OpenCode plugin: each event can do what {@code OpenCodeAdapterTest} says it can. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.agentwarden.host.opencode.OpenCodeAdapterTest#capabilities")
    void capability_perEvent_isWhatAnOpenCodePluginCanDo(String event, boolean canBlock, boolean hasContext) {
        assertThat(kilo.capability(event)).isEqualTo(new Capability(canBlock, hasContext, false));
    }

    @Test
    void ask_isDowngradedToADeny_andSaysSo() {
        HostResponse r = kilo.adapter().render("tool.execute.before", new Verdict(Kind.ASK, "confirm", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "deny").containsEntry("reason", "[warden] confirm");
        assertThat(r.stderr()).contains("ask rendered as a deny on tool.execute.before");
    }

    @Test
    void halt_isADenyThatAlsoStopsTheSession() {
        HostResponse r = kilo.adapter().render("chat.message", new Verdict(Kind.HALT, "stop", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "deny").containsEntry("halt", Boolean.TRUE);
    }

    @Test
    void block_afterTheTool_isDowngradedToContext_andSaysSo() {
        HostResponse r = kilo.adapter().render("tool.execute.after", Verdict.block("too late"));
        assertThat((String) Json.parseObject(r.stdout()).get("context")).contains("which a plugin cannot refuse: too late");
        assertThat(r.stderr()).contains("block downgraded on tool.execute.after");
    }

    @Test
    void block_onABusEvent_isAStderrNoteOnly() {
        HostResponse r = kilo.adapter().render("event.session.idle", Verdict.block("unfinished"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("block downgraded on event.session.idle").contains("context not delivered");
    }

    @Test
    void context_beforeTheTool_isNotDelivered_andSaysSo() {
        HostResponse r = kilo.adapter().render("tool.execute.before", new Verdict(Kind.WARN, null, "hint"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("context not delivered on tool.execute.before");
    }

    @Test
    void normalize_childSessionBash_isRecordedAsKilo_withLineage() {
        Map<String, Object> payload = Json.parseObject("""
                {"hook":"tool.execute.before","cwd":"/p","input":{"tool":"bash","sessionID":"ses_child","callID":"c1"},
                 "output":{"args":{"command":"echo hi","description":"echo"}},"parentID":"ses_top","rootID":"ses_top"}""");
        HookEvent e = kilo.adapter().normalize("tool.execute.before", EventName.PRE_TOOL_USE, payload, new byte[0], "/p");
        assertThat(e.host()).isEqualTo("kilo");
        assertThat(e.sessionId()).isEqualTo("ses_top");
        assertThat(e.agentId()).isEqualTo("ses_child");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo hi");
    }




    /** Kilo's background_process runs a command too: the shell chains (block-no-verify) must see it. */
    @Test
    void toolKinds_backgroundProcessIsAShell_besideOpenCodesTools() {
        assertThat(kilo.toolKind("background_process")).isEqualTo(ToolKind.SHELL);
        assertThat(kilo.toolKind("bash")).isEqualTo(ToolKind.SHELL);
        assertThat(kilo.toolKind("task")).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        assertThat(kilo.toolKind("edit")).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(kilo.toolKind("read")).isEqualTo(ToolKind.FILE_READ);
        assertThat(kilo.toolKind("board_post")).isEqualTo(ToolKind.OTHER);
        assertThat(OpenCodeHost.OPENCODE.toolKind("background_process")).isEqualTo(ToolKind.OTHER);
    }

}
