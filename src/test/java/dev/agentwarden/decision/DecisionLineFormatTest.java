package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the decision-log format v1 to a frozen line ({@code decision/format-v1.jsonl}, written once
 * and never regenerated): the writer's line for a fixed event, with its volatile values masked,
 * must equal it byte for byte. A change that fails this test is a format change: bump {@code v}.
 */
class DecisionLineFormatTest {
    @TempDir
    Path tmp;

    @Test
    void writerLine_fixedEvent_equalsFrozenFormatFixture() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        p.dispatch("PreToolUse", """
                {"session_id":"sess-fixture","hook_event_name":"PreToolUse","agent_id":"agent-7","cwd":"/w",\
                "tool_name":"Bash","tool_input": {"command":"sudo rm -rf /"} ,"tool_use_id":"t1"}""");

        List<String> lines = p.lines();
        assertThat(lines).hasSize(1);
        assertThat(withoutAdditions(masked(lines.get(0), p.manifest))).isEqualTo(fixture());
    }

    /**
     * Keys added to v1 after the fixture was frozen (readers of v1 ignore keys they do not know).
     * {@code strikes} is optional (only on a line whose session has strikes); the fixture's event is a
     * refusal in a session, so its line has it.
     */
    static final List<String> ADDED_IN_V1 = List.of("exit_code", "asked", "strikes");

    /** The line without the {@link #ADDED_IN_V1} keys, which are checked to be there. */
    static String withoutAdditions(String line) {
        String out = line;
        for (String key : ADDED_IN_V1) {
            String k = ",\"" + key + "\":";
            assertThat(out).contains(k);
            StringBuilder sb = new StringBuilder();
            int i = 0;
            for (int at = out.indexOf(k); at >= 0; at = out.indexOf(k, i)) {
                sb.append(out, i, at);
                int end = at + k.length();
                while (out.charAt(end) != ',' && out.charAt(end) != '}') {
                    end++;
                }
                i = end;
            }
            out = sb.append(out, i, out.length()).toString();
        }
        return out;
    }

    @Test
    void frozenFixture_withoutTheAddedKeys_isStillRead() throws Exception {
        Path dir = java.nio.file.Files.createDirectories(DecisionLog.dir(tmp.toString()));
        java.nio.file.Files.writeString(dir.resolve("2026-11.jsonl"), fixture() + "\n");
        DecisionSummary summary = new DecisionSummary(DecisionFilter.ALL);
        DecisionReader reader = new DecisionReader(tmp.toString());
        reader.readSummaryFields(null, dev.agentwarden.io.ReadProgress.NONE, summary);
        List<Map<String, Object>> full = new java.util.ArrayList<>();
        reader.read(null, full::add);

        assertThat(reader.unreadable()).isZero();
        assertThat(summary.decisions()).isEqualTo(1);
        assertThat(Json.write(summary.toJson())).contains("\"sudo-shadow\":{\"runs\":1,\"would_block\":1");
        assertThat(full).hasSize(1);
        assertThat(DecisionFilter.concerns(full.get(0))).allMatch(c -> !c.containsKey("exit_code"));
    }

    /** The line with {@code elapsed_us} values and the (temporary) manifest path replaced. */
    @SuppressWarnings("unchecked")
    static String masked(String line, Path manifest) {
        String m = line.replace(Json.write(manifest.toString()), "\"<manifest>\"");
        StringBuilder out = new StringBuilder();
        int i = 0;
        String key = "\"elapsed_us\":";
        while (true) {
            int at = m.indexOf(key, i);
            if (at < 0) {
                out.append(m, i, m.length());
                return out.toString();
            }
            int end = at + key.length();
            out.append(m, i, end);
            if (m.startsWith("null", end)) {
                out.append("null");
                i = end + 4;
            } else {
                while (end < m.length() && Character.isDigit(m.charAt(end))) {
                    end++;
                }
                out.append("0");
                i = end;
            }
        }
    }

    static String fixture() throws IOException {
        try (var in = DecisionLineFormatTest.class.getResourceAsStream("/decision/format-v1.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }

    @Test
    void frozenFixture_isVersionOne_withEveryDocumentedKey() throws Exception {
        Map<String, Object> d = Json.parseObject(fixture());
        assertThat(d.keySet()).containsExactly("v", "ts", "host", "event", "native_event", "session_id", "ref", "tool",
                "tool_input_sha256", "transport", "manifest", "role", "concerns", "verdict", "emitted", "downgrades",
                "fail_mode", "problem", "elapsed_us");
        assertThat(d.get("v")).isEqualTo(1L);
    }
}
