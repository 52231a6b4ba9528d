package dev.agentwarden.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A rule's mistakes are lint errors at file:line of the key, with the CEL position. */
class RuleLintTest {

    private static List<ManifestProblem> errors(String concern, String chain) throws Exception {
        String yaml = "schema_version: 1\n"
                + "concerns:\n"
                + "  r:\n"
                + "    script: builtin:rule\n"
                + concern.strip().indent(4)
                + "platforms:\n"
                + "  claude:\n"
                + "    " + chain + ": [r]\n";
        ManifestCompiler.Result result = ManifestCompiler.compile("policy.yaml", yaml, "0".repeat(64));
        return result.problems().stream().filter(ManifestProblem::isError).toList();
    }

    @Test
    void syntaxError_atTheWhenLine_withTheCelColumn() throws Exception {
        List<ManifestProblem> p = errors("""
                action: deny
                when: 'tool.name == '
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> {
            assertThat(e.toString()).startsWith("policy.yaml:6: error: concerns.r.when: CEL line 1 column 14:");
            assertThat(e.code()).isEqualTo("bad-setting");
        });
    }

    @Test
    void typeError_namesTheOverloadAndColumn() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'subagent.depth == "one"'
                action: deny
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString())
                .startsWith("policy.yaml:5: error: concerns.r.when: CEL line 1 column 16:")
                .contains("no matching overload").contains("(int, string)"));
    }

    @Test
    void conditionThatIsNotBoolean_isATypeError() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'command'
                action: deny
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString()).contains("concerns.r.when: CEL line 1 column"));
    }

    @Test
    void unknownField_isNamedWithTheClosestField() throws Exception {
        List<ManifestProblem> p = errors("""
                when: |
                  tool.kind == "shell" &&
                    tool.nmae == "Bash"
                action: deny
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString())
                .startsWith("policy.yaml:5: error: concerns.r.when: CEL line 2 column 3: unknown field 'tool.nmae'")
                .contains("did you mean `tool.name`"));
    }

    @Test
    void unknownFieldInTheReason_isAnError() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'true'
                action: deny
                reason: 'refused {tool.nam}'
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString())
                .startsWith("policy.yaml:7: error: concerns.r.reason: unknown field {tool.nam}"));
    }

    @Test
    void ruleBoundToAnEventItCannotSee_isAWrongEventError() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'tool.kind == "shell"'
                action: deny
                """, "user_prompt_submit");
        assertThat(p).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo("wrong-event");
            assertThat(e.toString()).startsWith("policy.yaml:9: error: platforms.claude.user_prompt_submit:")
                    .contains("reads tool.kind, which user_prompt_submit does not carry");
        });
    }

    @Test
    void rewriteOffPreToolUse_isAWrongEventError() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'true'
                action: rewrite
                rewrite: {command: '"ls"'}
                """, "post_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString()).contains("only pre_tool_use can do"));
    }

    @Test
    void rewriteExpressionThatIsNotAString_isATypeError() throws Exception {
        List<ManifestProblem> p = errors("""
                when: 'true'
                action: rewrite
                rewrite:
                  command: 'words.size()'
                """, "pre_tool_use");
        assertThat(p).singleElement().satisfies(e -> assertThat(e.toString())
                .startsWith("policy.yaml:7: error: concerns.r.rewrite.command: CEL line 1"));
    }

    @Test
    void actionMisspelt_andRewriteWithoutRewriteAction_areErrors() throws Exception {
        assertThat(errors("when: 'true'\naction: dney\n", "pre_tool_use")).singleElement()
                .satisfies(e -> assertThat(e.toString()).contains("concerns.r.action: must be one of").contains("did you mean `deny`"));
        assertThat(errors("when: 'true'\naction: deny\nrewrite: {command: '\"ls\"'}\n", "pre_tool_use")).singleElement()
                .satisfies(e -> assertThat(e.toString()).contains("rewrite: only with action: rewrite"));
    }

    @Test
    void aValidRule_hasNoProblems() throws Exception {
        assertThat(errors("""
                when: 'tool.kind == "mcp" && mcp.server == "github" && subagent.depth > 0'
                action: ask
                reason: '{mcp.tool} from a subagent in session {session.id}'
                """, "pre_tool_use")).isEmpty();
    }
}
