package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11.4: a manifest that names a host and no {@code native_event_aliases} uses the host's
 * default aliases; its own aliases add to or override them. Before, dispatch said "unknown event …
 * nothing to do" and allowed.
 */
class DefaultAliasesDispatchTest {
    @TempDir
    Path dir;

    private static final String NO_VERIFY = "{\"session_id\":\"s\",\"hook_event_name\":\"%s\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";

    private InProcessDispatch.Response dispatch(String host, String nativeEvent, String yaml) throws IOException {
        Path manifest = Files.writeString(dir.resolve("m.yaml"), yaml);
        Path project = Files.createDirectories(dir.resolve("project"));
        return new InProcessDispatch(dir.resolve("cache"), new MutableClock(Instant.parse("2026-11-01T12:00:00Z")))
                .run(host, String.format(NO_VERIFY, nativeEvent), "--native-event", nativeEvent, "--manifest",
                        manifest.toString(), "--project-dir", project.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"claude", "codex"})
    void dispatch_manifestWithoutAliases_deniesThroughTheHostsDefaultAlias(String host) throws IOException {
        InProcessDispatch.Response r = dispatch(host, "PreToolUse", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify}\nplatforms:\n  " + host + ":\n    pre_tool_use: [nv]\n");

        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).doesNotContain("unknown event");
    }

    @Test
    void dispatch_preSkillShellCommand_defaultAlias_shellConcernRefusesTheSkillsInlineCommand() throws IOException {
        InProcessDispatch.Response r = dispatch("claude", "PreSkillShellCommand", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify}\nplatforms:\n  claude:\n    pre_tool_use: [nv]\n");

        assertThat(r.stdout()).contains("\"hookEventName\":\"PreSkillShellCommand\"")
                .contains("\"permissionDecision\":\"deny\"").doesNotContain("additionalContext");
        assertThat(r.stderr()).doesNotContain("unknown event");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"PreModelSwitch", "PostModelSwitch", "DirectoryAdded"})
    void dispatch_claudeCode2_1_332Event_hasADefaultAlias(String nativeEvent) throws IOException {
        InProcessDispatch.Response r = dispatch("claude", nativeEvent, "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify}\nplatforms:\n  claude:\n    pre_tool_use: [nv]\n");

        assertThat(r.stdout()).as("nothing bound on its event").isEmpty();
        assertThat(r.stderr()).doesNotContain("unknown event");
    }

    @Test
    void dispatch_manifestAlias_overridesTheDefault() throws IOException {
        InProcessDispatch.Response r = dispatch("claude", "PostToolUse", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify}\nplatforms:\n  claude:\n    pre_tool_use: [nv]\n"
                + "native_event_aliases:\n  claude:\n    PostToolUse: pre_tool_use\n");

        assertThat(r.stdout()).as("PostToolUse runs the pre_tool_use chain").contains("\"decision\":\"block\"");
    }

    @Test
    void dispatch_nativeEventNoHostSends_isStillUnknown() throws IOException {
        InProcessDispatch.Response r = dispatch("codex", "PostToolUseFailure", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify}\nplatforms:\n  codex:\n    pre_tool_use: [nv]\n");

        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("unknown event 'PostToolUseFailure'");
    }

    /**
     * A manifest that aliases a canonical event to its own native name takes that event over: the
     * host's default name for it no longer runs the chain (CodexE2EIT's halt case aliases PreToolUse
     * to user_prompt_submit; Codex's own UserPromptSubmit must stay unbound).
     */
    @Test
    void dispatch_manifestAliasForACanonicalEvent_replacesTheDefaultNameForIt() throws IOException {
        String yaml = "schema_version: 1\nconcerns:\n  nv: {script: builtin:context-note, message: hi}\nplatforms:\n"
                + "  codex:\n    user_prompt_submit: [nv]\nnative_event_aliases:\n  codex:\n    PreToolUse: user_prompt_submit\n";

        assertThat(dispatch("codex", "PreToolUse", yaml).stderr()).doesNotContain("unknown event");
        InProcessDispatch.Response prompt = dispatch("codex", "UserPromptSubmit", yaml);
        assertThat(prompt.stdout()).isEmpty();
        assertThat(prompt.stderr()).contains("unknown event 'UserPromptSubmit'");
    }
}
