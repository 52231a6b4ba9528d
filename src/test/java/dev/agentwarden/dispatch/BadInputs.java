package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Hostile or broken stdin for {@code warden dispatch}, shared by the in-process and the process
 * tests. {@code problem} is the stable code dispatch must report, or {@code null} where the input
 * is still a readable event (invalid UTF-8 inside a string is decoded leniently, as U+FFFD).
 */
final class BadInputs {
    private BadInputs() {
    }

    record BadInput(Supplier<byte[]> stdin, String problem) {
    }

    static final int TWENTY_MB = 20 * 1024 * 1024;

    static Stream<Named<BadInput>> all() {
        return Stream.of(
                bad("emptyStdin", () -> new byte[0], "payload_not_json"),
                bad("whitespaceOnly", () -> " \n\t\r\n ".getBytes(StandardCharsets.UTF_8), "payload_not_json"),
                bad("notJson", () -> "PreToolUse Bash rm -rf /".getBytes(StandardCharsets.UTF_8), "payload_not_json"),
                bad("truncatedObject", () -> "{\"hook_event_name\":\"PreToolUse\",\"tool_input\":{\"comm".getBytes(StandardCharsets.UTF_8),
                        "payload_not_json"),
                bad("jsonArray", () -> "[{\"hook_event_name\":\"PreToolUse\"}]".getBytes(StandardCharsets.UTF_8), "payload_not_object"),
                bad("jsonString", () -> "\"PreToolUse\"".getBytes(StandardCharsets.UTF_8), "payload_not_object"),
                bad("jsonNull", () -> "null".getBytes(StandardCharsets.UTF_8), "payload_not_object"),
                bad("jsonNumber", () -> "42".getBytes(StandardCharsets.UTF_8), "payload_not_object"),
                bad("twoObjects", () -> "{\"a\":1}{\"b\":2}".getBytes(StandardCharsets.UTF_8), "payload_not_json"),
                bad("jsonLines", () -> "{\"a\":1}\n{\"b\":2}\n".getBytes(StandardCharsets.UTF_8), "payload_not_json"),
                bad("nulBytes", () -> new byte[64], "payload_not_json"),
                bad("invalidUtf8Garbage", () -> new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, 0x28, (byte) 0xa0}, "payload_not_json"),
                bad("invalidUtf8InsideString", BadInputs::invalidUtf8InString, null),
                bad("deeplyNestedArrays", () -> "[".repeat(1_000_000).getBytes(StandardCharsets.UTF_8), "payload_not_json"),
                bad("deeplyNestedToolInput", BadInputs::deepToolInput, "payload_not_json"),
                bad("twentyMegabytePayload", BadInputs::twentyMegabyteObject, "payload_too_large"),
                bad("twentyMegabytesOfRandomBytes", BadInputs::twentyMegabytesRandom, "payload_too_large"));
    }

    private static Named<BadInput> bad(String name, Supplier<byte[]> stdin, String problem) {
        return Named.of(name, new BadInput(stdin, problem));
    }

    private static byte[] invalidUtf8InString() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo "
                .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xc0, (byte) 0xaf, (byte) 0xed, (byte) 0xa0, (byte) 0x80});
        out.writeBytes("\"}}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static byte[] deepToolInput() {
        return ("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":"
                + "{\"a\":".repeat(400) + "1" + "}".repeat(400) + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] twentyMegabyteObject() {
        return ("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\",\"tool_response\":{\"content\":\""
                + "x".repeat(TWENTY_MB) + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] twentyMegabytesRandom() {
        byte[] b = new byte[TWENTY_MB];
        new Random(2026).nextBytes(b);
        return b;
    }

    /** Invariants for any dispatch outcome on bad input: exit 0, at most one JSON object, no stack trace. */
    static void assertWellBehaved(GoldenCorpus.Outcome o) {
        assertThat(o.exitCode()).isZero();
        GoldenCorpus.assertAtMostOneJsonObject(o.stdout());
        assertThat(o.stderr()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("internal error");
        assertThat(o.stderr().length()).as("stderr stays short, whatever the input").isLessThan(2000);
        assertThat(o.stdout().length()).isLessThan(2000);
    }

    /** A PreToolUse refusal in Claude's protocol, naming the problem. */
    @SuppressWarnings("unchecked")
    static void assertDenied(GoldenCorpus.Outcome o, String problem) {
        Map<String, Object> out = Json.parseObject(o.stdout());
        Map<String, Object> specific = (Map<String, Object>) out.get("hookSpecificOutput");
        assertThat(specific).containsEntry("hookEventName", "PreToolUse").containsEntry("permissionDecision", "deny");
        assertThat((String) specific.get("permissionDecisionReason")).contains(problem).contains("fail_closed");
        assertThat(o.stderr()).contains("warden: " + problem).contains("refused (fail_closed)");
    }

    static List<String> argv(String nativeEvent, boolean goldenManifest) {
        List<String> argv = new java.util.ArrayList<>(Arrays.asList("dispatch", "--host", "claude", "--native-event", nativeEvent));
        if (goldenManifest) {
            argv.add("--manifest");
            argv.add(GoldenCorpus.manifest().toString());
        }
        return argv;
    }
}
