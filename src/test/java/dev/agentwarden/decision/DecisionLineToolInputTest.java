package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonSpans;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The decision line's {@code tool_input_sha256} is found without the payload's tree now; over the
 * golden corpus's payloads (and the benchmark's) it is the same value the tree gave: SHA-256 of the
 * last top-level {@code tool_input} value's bytes as written, {@code null} without one.
 */
class DecisionLineToolInputTest {

    @Test
    void decisionLine_sameBytesAsBefore_forGoldenPayloads() throws Exception {
        List<byte[]> payloads = goldenPayloads();
        assertThat(payloads).hasSizeGreaterThan(40);
        int hashed = 0;
        for (byte[] p : payloads) {
            String before = treeHash(p);
            assertThat(DecisionLine.toolInputSha256(p)).as(new String(p, StandardCharsets.UTF_8)).isEqualTo(before);
            hashed += before != null ? 1 : 0;
        }
        assertThat(hashed).as("payloads with a tool_input").isGreaterThan(20);
    }

    /** What the line held before: the tree's last {@code tool_input} member, its bytes hashed. */
    private static String treeHash(byte[] payload) {
        try {
            JsonSpans.Value doc = JsonSpans.parse(payload);
            if (doc.kind() != JsonSpans.Kind.OBJECT) {
                return null;
            }
            List<JsonSpans.Member> named = doc.named("tool_input");
            if (named.isEmpty()) {
                return null;
            }
            JsonSpans.Value v = named.get(named.size() - 1).value();
            byte[] span = new byte[v.end() - v.start()];
            System.arraycopy(payload, v.start(), span, 0, span.length);
            return Sha256.hex(span);
        } catch (JsonException unreadable) {
            return null;
        }
    }

    /** Each golden case's stdin as the corpus sends it, and the benchmark's captured payload. */
    private static List<byte[]> goldenPayloads() throws Exception {
        Path root = Path.of(DecisionLineToolInputTest.class.getResource("/golden").toURI());
        List<byte[]> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".json") || name.endsWith(".expected.json") || root.relativize(f).startsWith("concerns")) {
                    continue;
                }
                Map<String, Object> input = Json.parseObject(Files.readString(f, StandardCharsets.UTF_8));
                if (input.containsKey("payload")) {
                    out.add(Json.write(input.get("payload")).getBytes(StandardCharsets.UTF_8));
                } else if (input.get("stdin") instanceof String s) {
                    out.add(s.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        out.add(Files.readAllBytes(Path.of("bench/pretooluse-bash.json")));
        return out;
    }
}
