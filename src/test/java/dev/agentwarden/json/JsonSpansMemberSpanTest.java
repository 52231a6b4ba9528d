package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonSpans#lastMemberSpan} finds the span {@link JsonSpans#parse} gives the last member of
 * a name, without the tree, and refuses exactly the documents the tree refuses: checked on every
 * JSON file among the test resources (captured host payloads, the golden corpus), on each cut
 * short, and on crafted edge cases.
 */
class JsonSpansMemberSpanTest {

    @Test
    void lastMemberSpan_everyTestDocumentAndEveryTopLevelName_isTheTreesSpan() throws Exception {
        List<byte[]> documents = testDocuments();
        assertThat(documents).hasSizeGreaterThan(100);
        int objects = 0;
        for (byte[] doc : documents) {
            JsonSpans.Value tree;
            try {
                tree = JsonSpans.parse(doc);
            } catch (JsonException refused) {
                assertRefused(doc);
                continue;
            }
            List<String> names = new ArrayList<>(List.of("tool_input", "no-such-member"));
            for (JsonSpans.Member m : tree.members()) {
                names.add(m.key());
            }
            objects += tree.kind() == JsonSpans.Kind.OBJECT ? 1 : 0;
            for (String name : names) {
                assertThat(JsonSpans.lastMemberSpan(doc, name)).as("%s in %s", name, text(doc))
                        .isEqualTo(treeSpan(tree, name));
            }
        }
        assertThat(objects).isGreaterThan(100);
    }

    @Test
    void lastMemberSpan_everyTestDocumentCutShort_refusedWhenTheTreeRefuses() throws Exception {
        for (byte[] doc : testDocuments()) {
            for (int cut : new int[] {1, doc.length / 3, doc.length / 2, doc.length - 1}) {
                if (cut <= 0 || cut >= doc.length) {
                    continue;
                }
                byte[] shorter = java.util.Arrays.copyOf(doc, cut);
                JsonSpans.Value tree;
                try {
                    tree = JsonSpans.parse(shorter);
                } catch (JsonException refused) {
                    assertRefused(shorter);
                    continue;
                }
                assertThat(JsonSpans.lastMemberSpan(shorter, "tool_input")).isEqualTo(treeSpan(tree, "tool_input"));
            }
        }
    }

    @Test
    void lastMemberSpan_editCases_sameAsTheTree() {
        String[] cases = {
            "{\"tool_input\":{\"a\":1},\"tool_input\":[2, 3]}",
            "{\"tool\\u005finput\":{\"escaped\":\"key\"}}",
            " \t\r\n{ \"tool_input\" :\n  \"text\\n\\\"quoted\\\"\\u00e9\" } \n",
            "\u00ef\u00bb\u00bf{\"tool_input\":null}",
            "{\"x\":{\"tool_input\":1}}",
            "[{\"tool_input\":1}]",
            "\"tool_input\"",
            "{}",
            "{\"tool_input\":-0.5e+10}",
            "{\"tool_input\":{\"deep\":[[[[{\"k\":[true,false,null]}]]]]}}",
            "{\"tool_input\":\"\u00e9\u4e2d\"}",
        };
        for (String c : cases) {
            byte[] doc = c.startsWith("\u00ef") ? latin1(c) : c.getBytes(StandardCharsets.UTF_8);
            assertThat(JsonSpans.lastMemberSpan(doc, "tool_input")).as(c).isEqualTo(treeSpan(JsonSpans.parse(doc), "tool_input"));
        }
    }

    @Test
    void lastMemberSpan_documentsTheTreeRefuses_areRefused() {
        String[] refused = {
            "", "   ", "{", "{\"tool_input\":}", "{\"tool_input\":1,}", "{\"tool_input\":1} x",
            "{\"tool_input\":\"a\u0001b\"}", "{\"tool_input\":\"\\x\"}", "{\"tool_input\":\"\\u12g4\"}",
            "{\"tool_input\":\"unterminated}", "{\"tool_input\":[1 2]}", "{\"tool_input\":01}", "{\"tool_input\":tru}",
            "{\"a\":{\"b\":\"\u0002\"},\"tool_input\":1}", "{\"a\":[1,],\"tool_input\":1}", "{tool_input:1}",
            "{\"tool_input\":1.}", "{\"tool_input\":-}", "{\"tool_input\":1e}",
            "[".repeat(JsonSpans.MAX_DEPTH + 1) + "]".repeat(JsonSpans.MAX_DEPTH + 1),
            "{\"tool_input\":" + "[".repeat(JsonSpans.MAX_DEPTH) + "]".repeat(JsonSpans.MAX_DEPTH) + "}",
        };
        for (String r : refused) {
            byte[] doc = r.getBytes(StandardCharsets.UTF_8);
            boolean treeRefuses;
            try {
                JsonSpans.parse(doc);
                treeRefuses = false;
            } catch (JsonException e) {
                treeRefuses = true;
            }
            assertThat(treeRefuses).as("the tree refuses %s", r).isTrue();
            assertRefused(doc);
        }
        String deepest = "{\"tool_input\":" + "[".repeat(JsonSpans.MAX_DEPTH - 1) + "]".repeat(JsonSpans.MAX_DEPTH - 1) + "}";
        byte[] doc = deepest.getBytes(StandardCharsets.UTF_8);
        assertThat(JsonSpans.lastMemberSpan(doc, "tool_input")).isEqualTo(treeSpan(JsonSpans.parse(doc), "tool_input"));
    }

    private static void assertRefused(byte[] doc) {
        boolean refused;
        try {
            JsonSpans.lastMemberSpan(doc, "tool_input");
            refused = false;
        } catch (JsonException e) {
            refused = true;
        }
        assertThat(refused).as("refused like the tree: %s", text(doc)).isTrue();
    }

    private static int[] treeSpan(JsonSpans.Value tree, String name) {
        if (tree.kind() != JsonSpans.Kind.OBJECT) {
            return null;
        }
        List<JsonSpans.Member> named = tree.named(name);
        if (named.isEmpty()) {
            return null;
        }
        JsonSpans.Value v = named.get(named.size() - 1).value();
        return new int[] {v.start(), v.end()};
    }

    private static List<byte[]> testDocuments() throws IOException, URISyntaxException {
        Path root = Path.of(JsonSpansMemberSpanTest.class.getResource("/golden").toURI()).getParent();
        List<byte[]> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json") && Files.isRegularFile(p)).sorted().toList()) {
                out.add(Files.readAllBytes(f));
            }
        }
        out.add(Files.readAllBytes(Path.of("bench/pretooluse-bash.json")));
        return out;
    }

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String text(byte[] doc) {
        String t = new String(doc, StandardCharsets.UTF_8);
        return t.length() > 200 ? t.substring(0, 200) + "…" : t;
    }
}
