package dev.agentwarden.host.codex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.verdict.Verdict.Kind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostAdapters;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Codex's hook protocol as {@link CodexAdapter} renders it, checked against the output schemas
 * embedded in Codex 0.171.0 (top-level and {@code hookSpecificOutput} keys per event; the host
 * rejects any other key) and the runtime rules it enforces on top of them.
 */
class CodexAdapterTest {
    private final CodexAdapter adapter = new CodexAdapter();

    /** Top-level keys each event's output schema allows, from {@code <event>.command.output}. */
    private static final Map<String, Set<String>> TOP_LEVEL = Map.of(
            "PreToolUse", Set.of("continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput", "systemMessage"),
            "PermissionRequest", Set.of("continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage"),
            "PostToolUse", Set.of("continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput", "systemMessage"),
            "UserPromptSubmit", Set.of("continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput", "systemMessage"),
            "SessionStart", Set.of("continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage"),
            "SubagentStart", Set.of("continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage"),
            "Stop", Set.of("continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"),
            "SubagentStop", Set.of("continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"),
            "PreCompact", Set.of("continue", "stopReason", "suppressOutput", "systemMessage"));

    /** {@code hookSpecificOutput} keys per event. */
    private static final Map<String, Set<String>> SPECIFIC = Map.of(
            "PreToolUse", Set.of("hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "updatedInput"),
            "PermissionRequest", Set.of("hookEventName", "decision"),
            "PostToolUse", Set.of("hookEventName", "additionalContext", "updatedMCPToolOutput"),
            "UserPromptSubmit", Set.of("hookEventName", "additionalContext"),
            "SessionStart", Set.of("hookEventName", "additionalContext"),
            "SubagentStart", Set.of("hookEventName", "additionalContext"));

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("PreToolUse", true, true),
                Arguments.of("PermissionRequest", true, false),
                Arguments.of("PostToolUse", true, true),
                Arguments.of("UserPromptSubmit", true, true),
                Arguments.of("Stop", true, false),
                Arguments.of("SubagentStop", true, false),
                Arguments.of("SessionStart", false, true),
                Arguments.of("SubagentStart", false, true),
                Arguments.of("PreCompact", false, false),
                Arguments.of("SessionEnd", false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void capability_perNativeEvent_isTheTable(String nativeEvent, boolean canBlock, boolean hasContext) {
        // PreToolUse runs updatedInput beside permissionDecision allow
        assertThat(adapter.capability(nativeEvent)).isEqualTo(new Capability(canBlock, hasContext, false,
                nativeEvent.equals("PreToolUse")));
    }

    static Stream<Arguments> everyVerdictOnEveryEvent() {
        Verdict[] verdicts = {Verdict.NO_OPINION, new Verdict(Kind.WARN, "w", "ctx"), Verdict.block("no"),
                new Verdict(Kind.BLOCK, "no", "ctx"), new Verdict(Kind.HALT, "stop now", null),
                new Verdict(Kind.ASK, "confirm?", "ctx")};
        return TOP_LEVEL.keySet().stream().flatMap(e -> Stream.of(verdicts).map(v -> Arguments.of(e, v)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyVerdictOnEveryEvent")
    @SuppressWarnings("unchecked")
    void render_anyVerdict_usesOnlyKeysTheEventSchemaAllows(String nativeEvent, Verdict verdict) {
        HostResponse r = adapter.render(nativeEvent, verdict);
        assertThat(r.exitCode()).isZero();
        if (r.stdout().isEmpty()) {
            return;
        }
        Map<String, Object> out = (Map<String, Object>) Json.parse(r.stdout());
        assertThat(out.keySet()).isSubsetOf(TOP_LEVEL.get(nativeEvent));
        assertThat(r.stdout()).as("never an explicit allow or approve").doesNotContain("\"allow\"", "\"approve\"");
        assertThat(r.stdout()).as("Codex rejects permissionDecision ask").doesNotContain("\"ask\"");
        if (out.get("hookSpecificOutput") instanceof Map<?, ?> specificAny) {
            Map<String, Object> specific = (Map<String, Object>) specificAny;
            assertThat(specific.keySet()).isSubsetOf(SPECIFIC.get(nativeEvent));
            assertThat(specific.get("hookEventName")).isEqualTo(nativeEvent);
        }
    }

    @Test
    void render_haltOnPreToolUse_isADenyWithReason() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.HALT, "integrity broken", null));
        assertThat(r.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                + "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"[warden] integrity broken\"}}");
        assertThat(r.stderr()).contains("halt rendered as a deny on PreToolUse");
    }

    @Test
    void render_haltOnStop_isContinueFalse() {
        HostResponse r = adapter.render("Stop", new Verdict(Kind.HALT, "integrity broken", null));
        assertThat(r.stdout()).isEqualTo("{\"continue\":false,\"stopReason\":\"[warden] integrity broken\"}");
    }

    @Test
    void render_noOpinionOnStopAndSubagentStop_isTheEmptyObject() {
        assertThat(adapter.render("Stop", Verdict.NO_OPINION).stdout()).isEqualTo("{}");
        assertThat(adapter.render("SubagentStop", Verdict.NO_OPINION).stdout()).isEqualTo("{}");
        assertThat(adapter.render("PreToolUse", Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
    }

    @Test
    void render_blockOnSessionEnd_writesNothingButSaysSo() {
        HostResponse r = adapter.render("SessionEnd", Verdict.block("late"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("not delivered on SessionEnd", "late");
    }

    @Test
    void forId_codex_isTheCodexAdapter() {
        assertThat(HostAdapters.forId("codex")).isInstanceOf(CodexAdapter.class);
        assertThat(HostAdapters.forId("codex").id()).isEqualTo("codex");
    }

    /** Codex 0.171.0 rejects {@code permissionDecision: "ask"} ("unsupported permissionDecision:ask"): an ask is a deny there. */
    @Test
    void render_askOnPreToolUse_isADenyBecauseCodexCannotAsk() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.ASK, "confirm the push", null));
        assertThat(r.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                + "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"[warden] confirm the push\"}}");
        assertThat(r.stderr()).contains("ask rendered as a block on PreToolUse");
        assertThat(adapter.capability("PreToolUse").canAsk()).isFalse();
    }

    /** On PermissionRequest no opinion leaves Codex's own approval prompt to ask the user. */
    @Test
    void render_askOnPermissionRequest_leavesTheHostsPrompt() {
        HostResponse r = adapter.render("PermissionRequest", new Verdict(Kind.ASK, "confirm", null));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("ask left to the host's own prompt on PermissionRequest: confirm");
    }
}
