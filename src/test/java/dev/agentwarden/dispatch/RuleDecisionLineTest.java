package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rewritten event's decision line says so: {@code rewritten: true}, which concern rewrote, and the
 * SHA-256 of the tool input (compact JSON) before and after; a line of an event not rewritten has none
 * of these keys.
 */
class RuleDecisionLineTest {

    @Test
    void rewrite_isRecordedWithBothHashes() throws Exception {
        GoldenCorpus.Case c = GoldenCorpus.load(GoldenCorpus.root().resolve("claude/PreToolUse-rule-rewrite.json"),
                "claude/PreToolUse-rule-rewrite");
        Map<String, Object> line;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open()) {
            GoldenCorpus.runInProcess(c, p);
            line = Json.parseObject(DecisionLines.only(p.dir));
        }
        Map<String, Object> before = Json.parseObject("{\"command\":\"echo golden-rule-rewrite\",\"description\":\"Print hello\"}");
        Map<String, Object> after = Json.parseObject("{\"command\":\"echo golden-rule-rewrite --dry-run\",\"description\":\"Print hello\"}");
        assertThat(line).containsEntry("verdict", "allow").containsEntry("rewritten", true)
                .containsEntry("rewritten_by", "rule-rewrite")
                .containsEntry("input_before_sha256", Sha256.hex(Json.write(before).getBytes(StandardCharsets.UTF_8)))
                .containsEntry("input_after_sha256", Sha256.hex(Json.write(after).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void noRewrite_noRewriteKeys() throws Exception {
        GoldenCorpus.Case c = GoldenCorpus.load(GoldenCorpus.root().resolve("claude/PreToolUse-rule-deny.json"),
                "claude/PreToolUse-rule-deny");
        Map<String, Object> line;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open()) {
            GoldenCorpus.runInProcess(c, p);
            line = Json.parseObject(DecisionLines.only(p.dir));
        }
        assertThat(line).containsEntry("verdict", "block").doesNotContainKeys("rewritten", "rewritten_by",
                "input_before_sha256", "input_after_sha256");
    }
}
