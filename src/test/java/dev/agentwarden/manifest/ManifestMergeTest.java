package dev.agentwarden.manifest;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.concern.ConcernSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11 item 5: {@code extends: default} lays a project manifest over the shipped one. */
class ManifestMergeTest {
    private static final List<String> DEFAULT_PRE_TOOL_USE = List.of("block-no-verify", "protect-warden", "spawn-guard");

    @TempDir
    Path tmp;

    private static ManifestCompiler.Result compile(String yaml) throws ManifestException {
        return ManifestCompiler.compile("m.yaml", yaml, Sha256.hex(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> names(Manifest m, String host, EventName event, String role) {
        return m.chain(host, event, role).stream().map(ConcernSpec::name).toList();
    }

    private static final String NOTE = """
            schema_version: 1
            extends: default
            concerns:
              test-reminder:
                script: builtin:context-note
                posture: advisory
                message: "Run the tests."
            platforms:
              claude:
                user_prompt_submit: [test-reminder]
            """;

    @Test
    void extendsDefault_chainOnAnotherEvent_keepsEveryDefaultChainAndAlias() throws Exception {
        ManifestCompiler.Result r = compile(NOTE);

        assertThat(r.problems()).isEmpty();
        Manifest m = r.manifest();
        assertThat(names(m, "claude", EventName.PRE_TOOL_USE, "")).isEqualTo(DEFAULT_PRE_TOOL_USE);
        assertThat(names(m, "codex", EventName.PRE_TOOL_USE, "")).isEqualTo(DEFAULT_PRE_TOOL_USE);
        assertThat(names(m, "claude", EventName.SUBAGENT_START, "")).containsExactly("subagent-ledger");
        assertThat(names(m, "claude", EventName.USER_PROMPT_SUBMIT, "")).containsExactly("test-reminder");
        assertThat(m.canonicalEvent("claude", "UserPromptSubmit")).isEqualTo(EventName.USER_PROMPT_SUBMIT);
        assertThat(r.origins().concerns()).containsEntry("block-no-verify", ManifestMerge.FROM_DEFAULT)
                .containsEntry("test-reminder", ManifestMerge.FROM_PROJECT);
        assertThat(r.origins().chains()).containsEntry("claude.pre_tool_use", ManifestMerge.FROM_DEFAULT)
                .containsEntry("claude.user_prompt_submit", ManifestMerge.FROM_PROJECT);
    }

    @Test
    void withoutExtends_projectManifest_replacesTheDefaultWhole() throws Exception {
        Manifest m = compile(NOTE.replace("extends: default\n", "")).manifest();

        assertThat(names(m, "claude", EventName.PRE_TOOL_USE, "")).isEmpty();
        assertThat(names(m, "codex", EventName.PRE_TOOL_USE, "")).isEmpty();
        assertThat(m.concerns()).containsOnlyKeys("test-reminder");
    }

    @Test
    void extendsDefault_chainNamedByProject_replacesTheDefaultChainForThatHostAndEvent() throws Exception {
        Manifest m = compile("""
                schema_version: 1
                extends: default
                concerns:
                  no-sudo:
                    script: builtin:deny-pattern
                    patterns: [{match: 'sudo', reason: "no sudo"}]
                platforms:
                  claude:
                    pre_tool_use: [no-sudo, block-no-verify]
                """).manifest();

        assertThat(names(m, "claude", EventName.PRE_TOOL_USE, "")).containsExactly("no-sudo", "block-no-verify");
        assertThat(names(m, "cowork", EventName.PRE_TOOL_USE, "")).as("other hosts keep the default").isEqualTo(DEFAULT_PRE_TOOL_USE);
    }

    @Test
    void extendsDefault_dropInChain_removesNamedConcernsFromTheDefaultChain() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                extends: default
                platforms:
                  codex:
                    pre_tool_use: {drop: [spawn-guard]}
                roles:
                  worker:
                    drop: [subagent-ledger]
                """);

        assertThat(r.problems()).isEmpty();
        assertThat(names(r.manifest(), "codex", EventName.PRE_TOOL_USE, "")).containsExactly("block-no-verify", "protect-warden");
        assertThat(names(r.manifest(), "claude", EventName.PRE_TOOL_USE, "")).isEqualTo(DEFAULT_PRE_TOOL_USE);
        assertThat(names(r.manifest(), "claude", EventName.SUBAGENT_STOP, "worker")).as("roles drop over merged chains").isEmpty();
        assertThat(r.origins().chains()).containsEntry("codex.pre_tool_use", "default without [spawn-guard]");
    }

    @Test
    void extendsDefault_concernOfTheSameName_replacesTheDefaultsDefinition() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                extends: default
                concerns:
                  spawn-guard:
                    script: builtin:spawn-guard
                    posture: blocking
                    tools: [Agent]
                """);

        assertThat(r.problems()).isEmpty();
        assertThat(r.manifest().concerns().get("spawn-guard").posture()).isEqualTo(Posture.BLOCKING);
        assertThat(names(r.manifest(), "claude", EventName.PRE_TOOL_USE, "")).isEqualTo(DEFAULT_PRE_TOOL_USE);
        assertThat(r.origins().concerns()).containsEntry("spawn-guard", ManifestMerge.OVERRIDES_DEFAULT);
    }

    @Test
    void extends_valueOtherThanDefault_isAnErrorAtItsLine() throws Exception {
        ManifestCompiler.Result r = compile("schema_version: 1\nextends: defualt\nconcerns: {}\nplatforms: {}\n");

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).extracting(ManifestProblem::toString)
                .anySatisfy(p -> assertThat(p).startsWith("m.yaml:2: error: extends: only `default`")
                        .contains("did you mean `default`?"));
    }

    @Test
    void drop_concernNotInTheDefaultChain_isAnErrorAtItsLine() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                extends: default
                platforms:
                  claude:
                    pre_tool_use: {drop: [spawn-gaurd]}
                """);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).extracting(ManifestProblem::toString).anySatisfy(p -> assertThat(p)
                .startsWith("m.yaml:5: error: platforms.claude.pre_tool_use.drop: 'spawn-gaurd' is not in the default chain")
                .contains("did you mean `spawn-guard`?"));
    }

    @Test
    void drop_withoutExtends_isAnError() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns: {}
                platforms:
                  claude:
                    pre_tool_use: {drop: [spawn-guard]}
                """);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).extracting(ManifestProblem::toString)
                .anySatisfy(p -> assertThat(p).startsWith("m.yaml:5: error: platforms.claude.pre_tool_use:").contains("extends: default"));
    }

    @Test
    void compiledForm_mergedOverAnotherDefault_isNotRead() throws Exception {
        Manifest m = compile(NOTE).manifest();
        String current = ManifestCodec.write(m, true);
        String other = current.replace(ManifestMerge.defaultSha256(), "0".repeat(64));

        assertThat(ManifestCodec.read("m.yaml", current).chains()).isEqualTo(m.chains());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ManifestCodec.read("m.yaml", other));
    }

    @Test
    void manifestShow_extendingManifest_marksWhereEachConcernCameFrom() throws Exception {
        Path file = Files.writeString(tmp.resolve("m.yaml"), NOTE);
        StringWriter out = new StringWriter();

        int code = dev.agentwarden.cli.WardenCli.execute(new String[] {"manifest", "show", "--host", "claude",
                "--event", "pre_tool_use", "--manifest", file.toString()}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));

        assertThat(code).isZero();
        assertThat(out.toString()).contains("(extends default: what it does not name is the default's)")
                .contains("chain: default").contains("block-no-verify").contains("from: default");
    }
}
