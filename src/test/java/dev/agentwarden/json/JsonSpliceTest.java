package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Text edits that follow the layout around them, and whose removal gives back the bytes from before. */
class JsonSpliceTest {
    static Stream<Arguments> appends() {
        return Stream.of(
                Arguments.of("emptyArray", "{\"a\": []}", "{\"a\": [\n  {\n    \"k\": 1\n  }\n]}"),
                Arguments.of("emptyArrayWithBlank", "{\"a\": [ ]}", "{\"a\": [\n  {\n    \"k\": 1\n  } ]}"),
                Arguments.of("singleLine", "{\"a\": [1, 2]}", "{\"a\": [1, 2, {\"k\":1}]}"),
                Arguments.of("multiLine", "{\n  \"a\": [\n    1\n  ]\n}", "{\n  \"a\": [\n    1,\n    {\n      \"k\": 1\n    }\n  ]\n}"),
                Arguments.of("crlf", "{\r\n  \"a\": [\r\n    1\r\n  ]\r\n}", "{\r\n  \"a\": [\r\n    1,\r\n    {\r\n      \"k\": 1\r\n    }\r\n  ]\r\n}"),
                Arguments.of("tabs", "{\n\t\"a\": [\n\t\t1\n\t]\n}", "{\n\t\"a\": [\n\t\t1,\n\t\t{\n\t\t\t\"k\": 1\n\t\t}\n\t]\n}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("appends")
    void appendElement_layout_followedAndRemovalRestoresBytes(String name, String before, String after) {
        byte[] doc = bytes(before);
        JsonSpans.Value array = JsonSpans.parse(doc).named("a").get(0).value();

        byte[] added = JsonSplice.appendElement(doc, array, Map.of("k", 1L));
        JsonSpans.Value again = JsonSpans.parse(added).named("a").get(0).value();
        byte[] removed = JsonSplice.remove(added, again, again.elements().size() - 1);

        assertThat(new String(added, StandardCharsets.UTF_8)).isEqualTo(after);
        assertThat(new String(removed, StandardCharsets.UTF_8)).isEqualTo(before);
    }

    @Test
    void appendMember_emptyRootObject_prettyOnOwnLines() {
        byte[] doc = bytes("{}\n");

        byte[] added = JsonSplice.appendMember(doc, JsonSpans.parse(doc), "hooks", Map.of("Stop", List.of()));

        assertThat(new String(added, StandardCharsets.UTF_8)).isEqualTo("{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n");
        assertThat(JsonSplice.remove(added, JsonSpans.parse(added), 0)).isEqualTo(doc);
    }

    @Test
    void remove_firstOfSeveral_takesItsSeparator() {
        byte[] doc = bytes("[1 , 2, 3]");

        assertThat(new String(JsonSplice.remove(doc, JsonSpans.parse(doc), 0), StandardCharsets.UTF_8)).isEqualTo("[2, 3]");
        assertThat(new String(JsonSplice.remove(doc, JsonSpans.parse(doc), 1), StandardCharsets.UTF_8)).isEqualTo("[1, 3]");
    }

    @Test
    void parse_spansAreByteOffsets_evenAfterMultiByteText() {
        byte[] doc = bytes("{\"é😀\": \"x\", \"n\": 12.50}");

        JsonSpans.Value root = JsonSpans.parse(doc);
        JsonSpans.Value n = root.named("n").get(0).value();

        assertThat(root.members().get(0).key()).isEqualTo("é😀");
        assertThat(new String(doc, n.start(), n.end() - n.start(), StandardCharsets.UTF_8)).isEqualTo("12.50");
    }

    @Test
    void parse_tooDeep_refused() {
        assertThatThrownBy(() -> JsonSpans.parse(bytes("[".repeat(300) + "]".repeat(300))))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_depth_limit"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
