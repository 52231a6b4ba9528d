package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 6: a manifest that does not compile never switches policy off in silence. The last
 * manifest that compiled and was trusted stays in force, every event names the broken file and its
 * first error, and the decision log marks the event; with no good manifest, the fail mode decides.
 */
class LastGoodManifestDispatchTest {
    private static final String GOOD = """
            schema_version: 1
            concerns:
              no-rm-root:
                script: builtin:deny-pattern
                tools: [Bash]
                patterns:
                  - match: 'rm -rf /'
                    reason: "RM-ROOT"
            platforms:
              claude:
                pre_tool_use: [no-rm-root]
            native_event_aliases:
              claude:
                PreToolUse: pre_tool_use
            """;
    /** {@code pattern:} for {@code patterns:} on line 5, the first example. */
    private static final String BROKEN = GOOD.replace("    patterns:", "    pattern:");
    private static final String RM_ROOT = Json.write(Map.of("session_id", "s", "hook_event_name", "PreToolUse",
            "tool_name", "Bash", "tool_input", Map.of("command", "rm -rf /")));

    @TempDir
    Path tmp;

    private Path project;
    private InProcessDispatch dispatch;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectories(tmp.resolve("project")).toRealPath();
        Files.createDirectories(project.resolve(".warden"));
        dispatch = dispatchWith(Map.of());
    }

    private InProcessDispatch dispatchWith(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        return new InProcessDispatch(tmp.resolve("cache"), MutableClock.at("2026-12-01T09:00:00Z"), env);
    }

    private void write(String yaml) throws IOException {
        Files.writeString(project.resolve(".warden/manifest.yaml"), yaml);
    }

    private List<Map<String, Object>> decisions() throws IOException {
        Path dir = project.resolve(".warden/state/decisions");
        try (Stream<Path> files = Files.list(dir)) {
            return files.flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(Json::parseObject).toList();
        }
    }

    @Test
    void dispatch_manifestBrokenAfterGoodOne_lastGoodStillDeniesAndEveryEventNamesFirstError() throws IOException {
        write(GOOD);
        dispatch.trust(project);
        write(BROKEN);

        for (int event = 0; event < 2; event++) {
            InProcessDispatch.Response r = dispatch.run("claude", RM_ROOT);

            assertThat(r.stdout()).as("the last good policy is in force").contains("\"permissionDecision\":\"deny\"")
                    .contains("RM-ROOT");
            assertThat(r.stderr()).as("event " + event)
                    .contains(".warden/manifest.yaml does not compile")
                    .contains(project.resolve(".warden/manifest.yaml") + ":6: error: concerns.no-rm-root.pattern:")
                    .contains("using the last trusted version");
        }
        assertThat(decisions()).extracting(d -> d.get("manifest_fallback"))
                .containsExactly("last_trusted:does_not_compile", "last_trusted:does_not_compile");
    }

    @Test
    void dispatch_brokenManifestNeverTrusted_isNamedAndTheDefaultStaysInForce() throws IOException {
        write(BROKEN);

        InProcessDispatch.Response r = dispatch.run("claude", Json.write(Map.of("session_id", "s",
                "hook_event_name", "PreToolUse", "tool_name", "Bash",
                "tool_input", Map.of("command", "git commit --no-verify -m x"))));

        assertThat(r.stdout()).as("the default's block-no-verify").contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains(":6: error: concerns.no-rm-root.pattern:").contains("using the default manifest");
        assertThat(decisions().get(0).get("manifest_fallback")).isEqualTo("default:does_not_compile");
    }

    @Test
    void dispatch_explicitManifestBrokenWithNoGoodOne_failModeClosedRefusesAndNamesFirstError() throws IOException {
        Path file = Files.writeString(tmp.resolve("broken.yaml"), BROKEN);

        InProcessDispatch.Response open = dispatch.run("claude", RM_ROOT, "--manifest", file.toString());
        InProcessDispatch.Response closed = dispatchWith(Map.of("WARDEN_FAIL_MODE", "closed"))
                .run("claude", RM_ROOT, "--manifest", file.toString());

        assertThat(open.stdout()).isEmpty();
        assertThat(open.stderr()).contains(file + ":6: error: concerns.no-rm-root.pattern:").contains("failing open");
        assertThat(closed.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(closed.stderr()).contains(file + ":6: error: concerns.no-rm-root.pattern:");
        assertThat(decisions()).extracting(d -> d.get("problem")).containsExactly("manifest_unusable", "manifest_unusable");
    }

    @Test
    void dispatch_editedManifestThatCompiles_saysOnlyThatItIsUntrusted() throws IOException {
        write(GOOD);
        dispatch.trust(project);
        write(GOOD.replace("RM-ROOT", "EDITED"));

        InProcessDispatch.Response r = dispatch.run("claude", RM_ROOT);

        assertThat(r.stdout()).contains("RM-ROOT");
        assertThat(r.stderr()).contains("is not trusted").doesNotContain("does not compile");
        assertThat(decisions().get(0).get("manifest_fallback")).isEqualTo("last_trusted:untrusted");
    }
}
