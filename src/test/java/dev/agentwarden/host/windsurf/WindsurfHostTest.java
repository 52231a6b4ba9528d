package dev.agentwarden.host.windsurf;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.windsurf.WindsurfSetup;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Windsurf as documented: only exit 2 on a pre hook blocks; everything else is a stderr note. */
class WindsurfHostTest {
    private static final Host WINDSURF = Hosts.byId("windsurf");

    @Test
    void capabilityTable_blocksOnPreHooksOnly_noContext_noAsk() {
        for (String pre : List.of("pre_read_code", "pre_write_code", "pre_run_command", "pre_mcp_tool_use", "pre_user_prompt")) {
            assertThat(WINDSURF.capability(pre)).as(pre).isEqualTo(new Capability(true, false, false));
        }
        for (String post : List.of("post_run_command", "post_write_code", "post_cascade_response")) {
            assertThat(WINDSURF.capability(post)).as(post).isEqualTo(new Capability(false, false, false));
        }
    }

    @Test
    void block_onAPreHook_isExit2WithTheReasonOnStderr_andNoJson() {
        HostResponse r = WINDSURF.adapter().render("pre_run_command", Verdict.block("no"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("[warden] no");
    }

    @Test
    void askAndHalt_onAPreHook_areBlocksLoudly() {
        for (Verdict.Kind kind : List.of(Verdict.Kind.ASK, Verdict.Kind.HALT)) {
            HostResponse r = WINDSURF.adapter().render("pre_write_code", new Verdict(kind, "why", null));
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.stderr()).contains("[warden] why").contains("rendered as a block on pre_write_code");
        }
    }

    @Test
    void block_onAPostHook_isExit0AndAStderrNote() {
        HostResponse r = WINDSURF.adapter().render("post_run_command", Verdict.block("late"));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).contains("block not delivered on post_run_command");
    }

    @Test
    void context_isAStderrNote() {
        HostResponse r = WINDSURF.adapter().render("pre_user_prompt", new Verdict(Verdict.Kind.WARN, "w", "mind it"));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).contains("context not delivered");
    }

    @Test
    void toolInfo_normalizesCommandFileAndMcpTool() {
        Map<String, Object> run = Json.parseObject("{\"agent_action_name\":\"pre_run_command\",\"trajectory_id\":\"t1\","
                + "\"tool_info\":{\"command_line\":\"git push\",\"cwd\":\"/p\"}}");
        HookEvent e = WINDSURF.adapter().normalize("pre_run_command", EventName.PRE_TOOL_USE, run, new byte[0], "/p");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("git push");
        assertThat(e.sessionId()).isEqualTo("t1");
        Map<String, Object> mcp = Json.parseObject("{\"agent_action_name\":\"pre_mcp_tool_use\",\"tool_info\":"
                + "{\"mcp_server_name\":\"gh\",\"mcp_tool_name\":\"create_issue\",\"mcp_tool_arguments\":{}}}");
        assertThat(WINDSURF.adapter().normalize("pre_mcp_tool_use", EventName.PRE_TOOL_USE, mcp, new byte[0], "/p").toolKind())
                .isEqualTo(ToolKind.MCP);
    }

    @Test
    void install_writesShowOutputEntries_perScope() throws Exception {
        Installer installer = WindsurfSetup.WINDSURF.installer(Host.Scope.PROJECT);
        assertThat(installer.settingsFile(Path.of("/p"), Map.of())).isEqualTo(Path.of("/p/.windsurf/hooks.json"));
        assertThat(WindsurfSetup.WINDSURF.installer(Host.Scope.USER).settingsFile(Path.of("/p"), Map.of("HOME", "/h")))
                .isEqualTo(Path.of("/h/.codeium/windsurf/hooks.json"));
        byte[] once = installer.install("{}".getBytes(StandardCharsets.UTF_8), HookLauncher.plain("/opt/warden/bin/warden"),
                List.of(new Installer.Binding("pre_run_command", null)));
        assertThat(new String(once, StandardCharsets.UTF_8)).contains("\"show_output\": true").doesNotContain("version");
        assertThat(installer.installedEvents(once)).containsExactly("pre_run_command");
        assertThat(new String(installer.uninstall(once), StandardCharsets.UTF_8)).isEqualTo("{}");
    }
}
