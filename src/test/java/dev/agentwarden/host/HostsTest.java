package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.HostSetups;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The host registry: one record per host, everything commands and dispatch need about it. */
class HostsTest {

    static Stream<Host> hosts() {
        return Hosts.ALL.stream();
    }

    @Test
    void all_idsAreUniqueAndKnownToManifests() {
        assertThat(new HashSet<>(Hosts.ids())).hasSameSizeAs(Hosts.ids());
        assertThat(Hosts.KNOWN).containsAll(Hosts.ids());
        assertThat(Hosts.ids()).startsWith("claude", "cowork", "codex").contains("copilot", "qwen", "opencode").doesNotHaveDuplicates();
        for (Host h : Hosts.ALL) {
            assertThat(Hosts.byId(h.id())).isSameAs(h);
            assertThat(h.adapter().id()).isEqualTo(h.id());
        }
        for (String id : Hosts.KNOWN) {
            if (!Hosts.ids().contains(id)) {
                assertThat(Hosts.byId(id)).as("known to manifests, no adapter yet: " + id).isNull();
            }
        }
    }

    /** Every native event the adapter has an output rule for is one the host's default aliases name. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void defaultAliases_coverEveryToolEventAndInstallScope(Host host) {
        assertThat(host.defaultAliases()).isNotEmpty();
        assertThat(host.defaultAliases().keySet()).containsAll(host.toolEvents());
        assertThat(host.defaultAliases()).containsValues(EventName.PRE_TOOL_USE, EventName.STOP);
        if (host.defaultAliases().containsKey("PreToolUse")) {
            assertThat(host.defaultAliases()).containsEntry("PreToolUse", EventName.PRE_TOOL_USE);
        }
        if (host.defaultAliases().containsKey("Stop")) {
            assertThat(host.defaultAliases()).containsEntry("Stop", EventName.STOP);
        }
        HostSetup setup = HostSetups.of(host);
        assertThat(setup.host()).isSameAs(host);
        assertThat(setup.installer(setup.defaultScope())).as("installable at its default scope").isNotNull();
    }

    /** Each host's MCP configuration files, from its own record: project files, then home files or their variable's. */
    static Stream<Arguments> mcpConfigFiles() {
        return Stream.of(
                Arguments.of("claude", Map.of(), List.of("/p/.mcp.json", "/h/.claude.json", "/h/.claude.json")),
                Arguments.of("codex", Map.of(), List.of("/p/.codex/config.toml", "/h/.codex/config.toml")),
                Arguments.of("codex", Map.of("CODEX_HOME", "/ch"), List.of("/p/.codex/config.toml", "/ch/config.toml")),
                Arguments.of("gemini", Map.of(), List.of("/p/.gemini/settings.json", "/h/.gemini/settings.json")),
                Arguments.of("copilot", Map.of("COPILOT_HOME", "/co"), List.of("/co/mcp-config.json", "/p/.vscode/mcp.json")),
                Arguments.of("cursor", Map.of(), List.of("/p/.cursor/mcp.json", "/h/.cursor/mcp.json")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("mcpConfigFiles")
    void inventoryFiles_mcpConfigs_areNamedByTheHostsOwnRecord(String id, Map<String, String> env, List<String> paths) {
        List<String> out = new java.util.ArrayList<>();
        for (McpConfigLocation location : Hosts.byId(id).inventoryFiles().mcpConfigs()) {
            out.add(location.path(Path.of("/p"), Path.of("/h"), env).toString());
        }
        assertThat(out).containsExactlyElementsOf(paths);
    }

    /** Cowork runs Claude Code's CLI: it names no files of its own and points at Claude Code's. */
    @Test
    void inventoryFiles_ofCowork_areThoseOfTheClaudeCodeCliItRuns() {
        Host.InventoryFiles cowork = Hosts.byId("cowork").inventoryFiles();
        assertThat(cowork.runsTheCliOf()).isSameAs(Hosts.byId("claude"));
        assertThat(cowork.mcpConfigs()).isEmpty();
        assertThat(cowork.usageFiles()).isEmpty();
        assertThat(Hosts.byId("claude").inventoryFiles().runsTheCliOf()).isNull();
    }

    /** Each usage-record shape is written by one host, whose record names the client id its records carry. */
    @Test
    void inventoryFiles_usageFiles_nameEachShapeOnceWithItsClient() {
        Map<UsageFileLocation.Format, String> clients = new java.util.EnumMap<>(UsageFileLocation.Format.class);
        for (Host h : Hosts.ALL) {
            if (h.inventoryFiles() != null) {
                for (UsageFileLocation u : h.inventoryFiles().usageFiles()) {
                    assertThat(clients.put(u.format(), u.clientId())).as("second writer of " + u.format()).isNull();
                    assertThat(u.where()).isNotBlank();
                }
            }
        }
        assertThat(clients).containsExactly(Map.entry(UsageFileLocation.Format.TRANSCRIPT, "claude-code"),
                Map.entry(UsageFileLocation.Format.EVENT_STREAM, "codex"),
                Map.entry(UsageFileLocation.Format.SESSION_EVENTS, "copilot-cli"));
    }

    static Stream<Arguments> settingsFiles() {
        return Stream.of(
                Arguments.of("claude", Host.Scope.PROJECT, Map.of(), "/proj/.claude/settings.json"),
                Arguments.of("claude", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.claude/settings.json"),
                Arguments.of("cowork", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.claude/settings.json"),
                Arguments.of("codex", Host.Scope.PROJECT, Map.of(), "/proj/.codex/hooks.json"),
                Arguments.of("codex", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.codex/hooks.json"),
                Arguments.of("codex", Host.Scope.USER, Map.of("HOME", "/home/u", "CODEX_HOME", "/opt/cx"), "/opt/cx/hooks.json"),
                Arguments.of("cline", Host.Scope.PROJECT, Map.of(), "/proj/.clinerules/hooks"),
                Arguments.of("cline", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.cline/hooks"),
                Arguments.of("cline", Host.Scope.USER, Map.of("HOME", "/home/u", "CLINE_DIR", "/opt/cl"), "/opt/cl/hooks"),
                Arguments.of("gemini", Host.Scope.PROJECT, Map.of(), "/proj/.gemini/settings.json"),
                Arguments.of("gemini", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.gemini/settings.json"),
                Arguments.of("opencode", Host.Scope.PROJECT, Map.of(), "/proj/.opencode/plugin/warden-bridge.js"),
                Arguments.of("opencode", Host.Scope.USER, Map.of("HOME", "/home/u"), "/home/u/.config/opencode/plugin/warden-bridge.js"),
                Arguments.of("opencode", Host.Scope.USER, Map.of("HOME", "/home/u", "XDG_CONFIG_HOME", "/x"), "/x/opencode/plugin/warden-bridge.js"));
    }

    /** The files install edits, as InstallCommand's own switch chose them before the registry. */
    @ParameterizedTest(name = "{0} {1} {3}")
    @MethodSource("settingsFiles")
    void installer_settingsFile_isTheHostsOwn(String id, Host.Scope scope, Map<String, String> env, String expected) {
        assertThat(HostSetups.byId(id).installer(scope).settingsFile(Path.of("/proj"), env)).isEqualTo(Path.of(expected));
    }

    @Test
    void cowork_hasOnlyUserScope() {
        assertThat(HostSetups.byId("cowork").installer(Host.Scope.PROJECT)).isNull();
        assertThat(HostSetups.byId("cowork").defaultScope()).isEqualTo(Host.Scope.USER);
    }

    static Stream<Arguments> toolKinds() {
        return Stream.of(
                Arguments.of("claude", "Bash", ToolKind.SHELL),
                Arguments.of("claude", "Agent", ToolKind.SUBAGENT_DISPATCH),
                Arguments.of("claude", "Task", ToolKind.SUBAGENT_DISPATCH),
                Arguments.of("claude", "Write", ToolKind.FILE_EDIT),
                Arguments.of("claude", "Read", ToolKind.FILE_READ),
                Arguments.of("claude", "mcp__github__create_issue", ToolKind.MCP),
                Arguments.of("claude", "WebFetch", ToolKind.OTHER),
                Arguments.of("claude", "spawn_agent", ToolKind.OTHER),
                Arguments.of("opencode", "bash", ToolKind.SHELL),
                Arguments.of("opencode", "task", ToolKind.SUBAGENT_DISPATCH),
                Arguments.of("opencode", "edit", ToolKind.FILE_EDIT),
                Arguments.of("opencode", "write", ToolKind.FILE_EDIT),
                Arguments.of("opencode", "read", ToolKind.FILE_READ),
                Arguments.of("opencode", "Bash", ToolKind.OTHER),
                Arguments.of("codex", "Bash", ToolKind.SHELL),
                Arguments.of("codex", "spawn_agent", ToolKind.SUBAGENT_DISPATCH),
                Arguments.of("codex", "apply_patch", ToolKind.FILE_EDIT),
                Arguments.of("codex", "Agent", ToolKind.OTHER),
                Arguments.of("cline", "run_commands", ToolKind.SHELL),
                Arguments.of("cline", "spawn_agent", ToolKind.SUBAGENT_DISPATCH),
                Arguments.of("cline", "editor", ToolKind.FILE_EDIT),
                Arguments.of("cline", "apply_patch", ToolKind.FILE_EDIT),
                Arguments.of("cline", "read_files", ToolKind.FILE_READ),
                Arguments.of("cline", "Bash", ToolKind.OTHER));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("toolKinds")
    void toolKind_perHost_isTheHostsTable(String id, String tool, ToolKind kind) {
        assertThat(Hosts.byId(id).toolKind(tool)).isEqualTo(kind);
        assertThat(Hosts.byId(id).toolKind(null)).isNull();
    }

    @Test
    void projectDirVariables_unionOfHosts_eachOnce() {
        assertThat(Hosts.projectDirVariables()).startsWith("CLAUDE_PROJECT_DIR").contains("QWEN_PROJECT_DIR", "COPILOT_PROJECT_DIR")
                .doesNotHaveDuplicates();
        assertThat(Hosts.byId("codex").projectDirVariables()).isEmpty();
    }

    /**
     * The list a dispatch reads (kept beside the registry so it builds no record) is exactly every
     * record's variables, each once, in host order: a host whose record adds a variable fails here.
     */
    @Test
    void projectDirVariables_keptList_isEveryRecordsVariablesInHostOrder() {
        List<String> gathered = new java.util.ArrayList<>();
        for (Host h : Hosts.ALL) {
            for (String v : h.projectDirVariables()) {
                if (!gathered.contains(v)) {
                    gathered.add(v);
                }
            }
        }
        assertThat(Hosts.projectDirVariables()).isEqualTo(gathered);
    }

    /** The lazy list is the one list: every id finds its record, in list order, and no record is missing or doubled. */
    @Test
    void all_lazyList_isEveryIdsRecordInOrder() {
        assertThat(Hosts.ALL).hasSize(Hosts.ids().size()).doesNotContainNull().doesNotHaveDuplicates();
        for (int i = 0; i < Hosts.ALL.size(); i++) {
            assertThat(Hosts.ALL.get(i).id()).isEqualTo(Hosts.ids().get(i));
            assertThat(Hosts.byId(Hosts.ids().get(i))).isSameAs(Hosts.ALL.get(i));
        }
        assertThat(Hosts.byId(null)).isNull();
        assertThat(Hosts.byId("claud")).isNull();
    }

    @Test
    void outputCap_isTheHostsAndTheLargestBoundsSettings() {
        assertThat(Hosts.byId("claude").outputCapChars()).isEqualTo(10_000);
        assertThat(Hosts.byId("cline").outputCapChars()).isEqualTo(50_000);
        assertThat(Hosts.largestOutputCap()).isEqualTo(50_000);
    }

    /** {@code warden serve} prints Claude's HTTP hook block, as ServeCommand.CLAUDE_EVENTS gave it. */
    @Test
    @SuppressWarnings("unchecked")
    void serveHooks_claude_coverTheSixEventsOnTheServersPort() {
        Map<String, Object> block = HostSetups.byId("claude").serveHooks().block(4242);
        Map<String, Object> events = (Map<String, Object>) block.get("hooks");
        assertThat(events.keySet()).containsExactly("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop",
                "SubagentStop", "SessionStart");
        Map<String, Object> group = ((List<Map<String, Object>>) events.get("Stop")).get(0);
        Map<String, Object> hook = ((List<Map<String, Object>>) group.get("hooks")).get(0);
        assertThat(hook).containsEntry("url", "http://127.0.0.1:4242/dispatch/claude/Stop").containsEntry("type", "http");
        Set<String> withServe = new HashSet<>();
        for (HostSetup h : HostSetups.ALL) {
            if (h.serveHooks() != null) {
                withServe.add(h.id());
            }
        }
        assertThat(withServe).containsExactly("claude");
    }

    /**
     * The compiled hook's fallback test runs inside the host's own shell: Claude Code and Cowork run
     * hooks with {@code sh -c}, Gemini CLI and Qwen Code with {@code bash -c}, Codex with
     * {@code $SHELL -lc}, Factory Droid through a shell too (measured on 0.225.2). Copilot reads a missing program on preToolUse as a deny, and the others are
     * from docs only, so they keep {@code bin/warden}.
     */
    @Test
    void hookShell_isSetForTheHostsWhoseShippedCodeRunsHooksThroughAShell() {
        Set<String> shell = new HashSet<>();
        for (HostSetup host : HostSetups.ALL) {
            if (host.hookShell()) {
                shell.add(host.id());
            }
        }
        assertThat(shell).containsExactlyInAnyOrder("claude", "cowork", "codex", "gemini", "qwen", "droid");
    }
}
