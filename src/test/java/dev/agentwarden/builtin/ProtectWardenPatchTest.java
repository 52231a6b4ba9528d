package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 28 item 5: protect-warden reads the files a patch envelope names, on every host whose edit
 * tool takes one: Codex's {@code apply_patch} (the patch in {@code tool_input.command}, or a shell
 * here-document fed to {@code apply_patch}), OpenCode's ({@code args.patchText}) and Cline's
 * ({@code input}). Payloads are the hosts' captured ones with the tool call swapped for the patch.
 */
class ProtectWardenPatchTest {

    private static final Map<String, String> ENV = Map.of("HOME", "/home/dev", "XDG_CACHE_HOME", "/home/dev/.cache");

    private static final ConcernSpec SPEC = new ConcernSpec("protect-warden", "builtin:protect-warden", List.of(), false,
            Posture.BLOCKING, Set.of(), 10_000, false, 0, Map.of());

    static String patch(String... headers) {
        StringBuilder p = new StringBuilder("*** Begin Patch\n");
        for (String h : headers) {
            p.append("*** ").append(h).append('\n');
            if (h.startsWith("Add File:")) {
                p.append("+{}\n");
            } else if (h.startsWith("Update File:")) {
                p.append("@@\n-old\n+new\n");
            }
        }
        return p.append("*** End Patch\n").toString();
    }

    static Stream<Arguments> patches() {
        return Stream.of(
                Arguments.of("issue28_updateCodexHooks", patch("Update File: .codex/hooks.json"), true),
                Arguments.of("issue28_addFileUnderTheTrustStore",
                        patch("Add File: /home/dev/.local/state/agent-warden/trust/forged.json"), true),
                Arguments.of("moveOntoClaudeSettings", patch("Update File: notes.json", "Move to: .claude/settings.json"), true),
                Arguments.of("deleteCodexProjectTrust", patch("Delete File: ~/.codex/config.toml"), true),
                Arguments.of("protectedFileAfterHarmlessOnes",
                        patch("Add File: src/a.txt", "Update File: src/b.txt", "Update File: ../proj/.codex/hooks.json"), true),
                Arguments.of("sourceFilesOnly", patch("Add File: src/a.txt", "Update File: README.md", "Delete File: x.py"),
                        false));
    }

    @ParameterizedTest(name = "codex {0}")
    @MethodSource("patches")
    void evaluate_codexApplyPatch(String name, String patch, boolean denied) {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-03-PreToolUse.json"));
        payload.put("tool_name", "apply_patch");
        payload.put("tool_input", Map.of("command", patch));

        HookEvent e = normalize("codex", "PreToolUse", payload);

        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(isBlock(e)).as(patch).isEqualTo(denied);
    }

    @ParameterizedTest(name = "codex shell {0}")
    @MethodSource("patches")
    void evaluate_codexShellHeredocToApplyPatch(String name, String patch, boolean denied) {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-03-PreToolUse.json"));
        payload.put("tool_name", "Bash");
        payload.put("tool_input", Map.of("command", "apply_patch <<'EOF'\n" + patch + "EOF\n"));

        assertThat(isBlock(normalize("codex", "PreToolUse", payload))).as(patch).isEqualTo(denied);
    }

    @ParameterizedTest(name = "opencode {0}")
    @MethodSource("patches")
    @SuppressWarnings("unchecked")
    void evaluate_openCodeApplyPatch(String name, String patch, boolean denied) {
        // captured: opencode-1.18.33/allow/020-tool.execute.before.json, the bash call swapped for apply_patch
        Map<String, Object> payload = Json.parseObject("{\"hook\":\"tool.execute.before\",\"input\":{\"tool\":\"apply_patch\","
                + "\"sessionID\":\"ses_dcf85924effeLrC2F2pxl95jQR\",\"callID\":\"toolu_885f60ac53c1480cb7ff4a14\"},"
                + "\"output\":{\"args\":{}},\"cwd\":\"/home/dev/proj\"}");
        ((Map<String, Object>) ((Map<String, Object>) payload.get("output")).get("args")).put("patchText", patch);

        HookEvent e = normalize("opencode", "tool.execute.before", payload);

        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(isBlock(e)).as(patch).isEqualTo(denied);
    }

    @ParameterizedTest(name = "cline {0}")
    @MethodSource("patches")
    @SuppressWarnings("unchecked")
    void evaluate_clineApplyPatch(String name, String patch, boolean denied) {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("cline-3.0.65/allow-02-PreToolUse.json"));
        Map<String, Object> call = (Map<String, Object>) payload.get("tool_call");
        call.put("name", "apply_patch");
        call.put("input", Map.of("input", patch));
        payload.put("preToolUse", Map.of("toolName", "apply_patch", "parameters", Map.of("input", patch)));

        HookEvent e = normalize("cline", "PreToolUse", payload);

        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(isBlock(e)).as(patch).isEqualTo(denied);
    }

    @Test
    void evaluate_codexPatch_reasonNamesTheFile() {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-03-PreToolUse.json"));
        payload.put("tool_name", "apply_patch");
        payload.put("tool_input", Map.of("command", patch("Update File: src/x.py", "Update File: .codex/hooks.json")));

        ConcernResult r = new ProtectWarden().evaluate(context(normalize("codex", "PreToolUse", payload)));

        assertThat(r.reason()).isEqualTo(ProtectWarden.PREFIX + HookBypass.quote(".codex/hooks.json") + " is Codex's hook settings;"
                + " ask the user to make the change themselves, in their own terminal");
    }

    /** The whole path: the default manifest, dispatched as Codex's hook command runs it, refuses the patch. */
    @Test
    void dispatch_codexApplyPatchOnItsHooks_deniedUnderTheDefaultManifest(@TempDir Path tmp) throws Exception {
        Path project = Files.createDirectories(tmp.resolve("proj"));
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-03-PreToolUse.json"));
        payload.put("cwd", project.toString());
        payload.put("tool_name", "apply_patch");
        payload.put("tool_input", Map.of("command", patch("Update File: .codex/hooks.json")));
        InProcessDispatch dispatch = new InProcessDispatch(tmp.resolve("cache"), Clock.systemUTC(),
                Map.of("HOME", tmp.toString()));

        InProcessDispatch.Response r = dispatch.run("codex", Json.write(payload), "--project-dir", project.toString());

        assertThat(r.exitCode()).isZero();
        Map<String, Object> out = Json.parseObject(r.stdout());
        assertThat(out.get("hookSpecificOutput").toString()).contains("permissionDecision=deny")
                .contains("is Codex's hook settings");
    }

    private static HookEvent normalize(String host, String nativeEvent, Map<String, Object> payload) {
        Map<String, Object> copy = new LinkedHashMap<>(payload);
        return Hosts.byId(host).adapter().normalize(nativeEvent, EventName.PRE_TOOL_USE, copy,
                Json.write(copy).getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    private static boolean isBlock(HookEvent e) {
        return new ProtectWarden().evaluate(context(e)).decision() == Decision.BLOCK;
    }

    private static ConcernContext context(HookEvent e) {
        return new ConcernContext(e, SPEC, Clock.systemUTC(), null, ENV);
    }
}
