package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Issue 28 item 5: the files a patch envelope names, as Codex's, OpenCode's and Cline's {@code apply_patch} send one. */
class PatchEnvelopeTest {

    static Stream<Arguments> patches() {
        return Stream.of(
                Arguments.of("codexUpdate", "*** Begin Patch\n*** Update File: .codex/hooks.json\n@@\n-a\n+b\n*** End Patch\n",
                        List.of(".codex/hooks.json")),
                Arguments.of("everyHeader", "*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** Update File: src/app.py\n"
                        + "*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello\")\n"
                        + "*** Delete File: obsolete.txt\n*** End Patch",
                        List.of("hello.txt", "src/app.py", "src/main.py", "obsolete.txt")),
                Arguments.of("crlfAndTrailingBlanks", "*** Begin Patch\r\n*** Add File: a b.txt  \r\n+x\r\n*** End Patch\r\n",
                        List.of("a b.txt")),
                Arguments.of("indentedHeader_heredocInAShellCommand",
                        "apply_patch <<'EOF'\n  *** Begin Patch\n  *** Update File: /home/dev/.codex/config.toml\n  @@\n"
                                + "  -x\n  +y\n  *** End Patch\nEOF", List.of("/home/dev/.codex/config.toml")),
                Arguments.of("headerInsideAHunkLine_isContent", "*** Begin Patch\n*** Update File: a.md\n@@\n"
                        + "+ *** Add File: not-a-header.txt\n-x *** Delete File: nor-this\n*** End Patch", List.of("a.md")),
                Arguments.of("emptyPath_ignored", "*** Add File:   \n*** Delete File:x", List.of("x")),
                Arguments.of("starsWithoutHeader", "*** Begin Patch\n***\n*** End of File\n*** End Patch", List.of()),
                Arguments.of("plainCommand", "git commit -m 'x'", List.of()),
                Arguments.of("markAtTheVeryEnd", "echo ***", List.of()),
                Arguments.of("empty", "", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void patchPaths_envelope(String name, String patch, List<String> paths) {
        assertThat(ToolInputs.patchPaths(Map.of("command", patch))).isEqualTo(paths);
        assertThat(ToolInputs.patchPaths(patch)).isEqualTo(paths);
    }

    static Stream<Arguments> inputs() {
        String patch = "*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch\n";
        return Stream.of(
                Arguments.of("codexCommand", Map.of("command", patch), List.of("x.txt")),
                Arguments.of("clineInput", Map.of("input", patch), List.of("x.txt")),
                Arguments.of("openCodePatchText", Map.of("patchText", patch), List.of("x.txt")),
                Arguments.of("patch", Map.of("patch", patch), List.of("x.txt")),
                Arguments.of("otherKey_notRead", Map.of("content", patch), List.of()),
                Arguments.of("notAString", Map.of("command", List.of(patch)), List.of()),
                Arguments.of("notAnObject", List.of(patch), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void patchPaths_toolInputKeys(String name, Object toolInput, List<String> paths) {
        assertThat(ToolInputs.patchPaths(toolInput)).isEqualTo(paths);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void filePaths_namedKeysFirst_thenPatchPaths(String name, Object toolInput, List<String> paths) {
        Object withFile = toolInput instanceof Map<?, ?> m ? withKey(m, "file_path", "first.txt") : toolInput;
        List<String> got = ToolInputs.filePaths(withFile, "file_path");
        if (toolInput instanceof Map<?, ?>) {
            assertThat(got.get(0)).isEqualTo("first.txt");
            assertThat(got.subList(1, got.size())).isEqualTo(paths);
        } else {
            assertThat(got).isEqualTo(paths);
        }
    }

    private static Map<Object, Object> withKey(Map<?, ?> m, String key, String value) {
        Map<Object, Object> out = new java.util.LinkedHashMap<>(m);
        out.put(key, value);
        return out;
    }
}
